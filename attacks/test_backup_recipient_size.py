"""Algorithmic complexity of BackupKey's recipient: the PEM `recipient_public_key_pem` is the one string of
the request the server parses, twice: in the call, after the `export` check, and in the audit record, before
any grant is checked, since the record keeps the recipient a refused call asked for. The regex it went through
backtracked on whitespace runs: 2,000 spaces (under the audit's old 2,048-character cap) cost about 10 s of a
core for a caller without `export` (before the fix: each such call DEADLINE_EXCEEDED at 10 s), and 4 MiB far
longer for a caller with it. An anonymous caller is refused before its message is read.

Budget, on a server with `--audit-log` and `--audit-required` (each answer waits for its record): three callers,
one with `export` (and `encrypt`), one with `admin`, `import`, `inspect`, `encrypt`, `decrypt` but not `export`,
and one anonymous, each send BackupKey for an exportable key 3 times with each hostile recipient: just under the
4 MiB message limit of whitespace after the BEGIN line with no END line, of base64 with no END line, of
whitespace between both armour lines, and 2,000 spaces after the BEGIN line (under the audit's old cap). Each answered within 2 s (10 s deadline):
INVALID_ARGUMENT for the `export` caller (naming the 16,384-character limit and the length sent, never the
PEM), PERMISSION_DENIED for the one without it, UNAUTHENTICATED for the anonymous one; every refusal at most
1 KiB. Meanwhile a cheap Encrypt on another connection, every 0.2 s for as long as the attack runs (at most 60),
each OK within 2 s. Afterwards each call has one record of at most 2 KiB naming no recipient, and the `export`
caller's ordinary backup still works (positive control: a real recipient's record names it)."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from answers import Answer, Metadata, unary
from certs import Pem
from conftest import EVERY_KEY
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from policy import ANONYMOUS_METADATA, Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb

BUDGET_S = 2.0
DEADLINE_S = 10.0
REPEATS = 3
MAX_ENCRYPTS = 60
MAX_MESSAGE = 4 * 1024 * 1024
LIMIT = 16_384
REFUSAL_BUDGET = 1024
RECORD_BUDGET = 2048
KEY = "backed-up"
TRAIL = "audit.log"
BEGIN = "-----BEGIN PUBLIC KEY-----"
END = "-----END PUBLIC KEY-----"
BIG = MAX_MESSAGE - 1024

EXPORTER = Caller("exporter", [Rule(EVERY_KEY, ["admin", "export", "encrypt", "inspect"])])
NO_EXPORT = Caller("no-export", [Rule(EVERY_KEY, ["admin", "import", "inspect", "encrypt", "decrypt"])])

RECIPIENTS = {
    "whitespace-4MiB-no-END": BEGIN + " \n" * ((BIG - len(BEGIN)) // 2),
    "base64-4MiB-no-END": BEGIN + "A" * (BIG - len(BEGIN)),
    "whitespace-4MiB-armoured": BEGIN + " " * (BIG - len(BEGIN) - len(END)) + END,
    "spaces-2000-no-END": BEGIN + " " * 2000,
}
NAMED = (EXPORTER.name, NO_EXPORT.name)
CALLERS: dict[str, tuple[Metadata, grpc.StatusCode]] = {
    EXPORTER.name: (EXPORTER.metadata, grpc.StatusCode.INVALID_ARGUMENT),
    NO_EXPORT.name: (NO_EXPORT.metadata, grpc.StatusCode.PERMISSION_DENIED),
    "anonymous": (ANONYMOUS_METADATA, grpc.StatusCode.UNAUTHENTICATED),
}


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("recipient-size")


@pytest.fixture(scope="module")
def target(workdir: Path, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    policy = write_policy(workdir / "policy.yaml", [EXPORTER, NO_EXPORT])
    with serve(
        workdir,
        [
            *tls_and_policy(server_pem, policy),
            "--audit-log",
            str(workdir / TRAIL),
            "--audit-required",
        ],
        ca=pki.pem,
    ) as t:
        with connect(t) as stubs:
            created = unary(
                stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=KEY, exportable=True), EXPORTER.metadata
            )
            assert created.ok, created.brief()
            # Warm: the cheap call's time should be the server's answer, not its first key load.
            assert _encrypt(stubs).ok
        yield t


def _encrypt(stubs: Stubs) -> Answer:
    return unary(stubs.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), EXPORTER.metadata, DEADLINE_S)


def _backup(stubs: Stubs, pem: str, metadata: Metadata) -> Answer:
    return unary(
        stubs.admin.BackupKey,
        admin_pb.BackupKeyRequest(key_name=KEY, recipient_public_key_pem=pem),
        metadata,
        DEADLINE_S,
    )


def _records(workdir: Path, who: str) -> list[tuple[int, dict[str, Any]]]:
    """The BackupKey call records of caller `who` in the trail (any caller the policy does not name for
    "anonymous"), each with its size in bytes."""
    lines = (workdir / TRAIL).read_bytes().splitlines()
    records = [(len(line), json.loads(line)) for line in lines]
    return [
        (size, r)
        for size, r in records
        if r.get("type") == "call"
        and r.get("method") == "cipherd.v1.KeyAdminService/BackupKey"
        and (
            r.get("caller", {}).get("id") == who or (who == "anonymous" and r.get("caller", {}).get("id") not in NAMED)
        )
    ]


@pytest.mark.parametrize("who", list(CALLERS))
@pytest.mark.parametrize("shape", list(RECIPIENTS))
def test_a_hostile_recipient_is_refused_in_time_and_the_server_keeps_serving(
    target: Target, workdir: Path, who: str, shape: str
) -> None:
    metadata, expected = CALLERS[who]
    pem = RECIPIENTS[shape]
    answers: list[Answer] = []
    meanwhile: list[Answer] = []
    recorded_before = len(_records(workdir, who))
    with connect(target) as slow, connect(target) as cheap:
        # Connect both first, so neither time includes a TLS handshake.
        grpc.channel_ready_future(slow.channel).result(timeout=30)
        grpc.channel_ready_future(cheap.channel).result(timeout=30)
        attack = threading.Thread(
            target=lambda: answers.extend(_backup(slow, pem, metadata) for _ in range(REPEATS)), daemon=True
        )
        attack.start()
        # At least one, however quickly the attack is answered.
        meanwhile.append(_encrypt(cheap))
        while attack.is_alive() and len(meanwhile) < MAX_ENCRYPTS:
            time.sleep(0.2)
            meanwhile.append(_encrypt(cheap))
        attack.join(REPEATS * (DEADLINE_S + 5))
    assert len(answers) == REPEATS, "the attack's calls never returned"

    problems = []
    for answer in answers:
        if answer.code != expected or answer.seconds > BUDGET_S:
            problems.append(f"answered {answer.brief()}: budget {expected.name} within {BUDGET_S} s")
        if answer.size > REFUSAL_BUDGET:
            problems.append(f"the refusal is {answer.size} B > {REFUSAL_BUDGET} B: it echoes the request")
        if BEGIN in answer.message or "AAAA" in answer.message:
            problems.append(f"the refusal shows the PEM: {answer.message[:120]!r}")
    if expected == grpc.StatusCode.INVALID_ARGUMENT and len(pem) > LIMIT:
        named = f"at most {LIMIT} characters"
        problems += [
            f"the refusal does not name the limit and the length: {a.message!r}"
            for a in answers
            if named not in a.message or f"got {len(pem)}" not in a.message
        ]
    slow_encrypts = [m for m in meanwhile if not m.ok or m.seconds > BUDGET_S]
    if slow_encrypts:
        problems.append(
            f"cheap Encrypts meanwhile: {len(slow_encrypts)} of {len(meanwhile)} not OK within {BUDGET_S} s"
            + (f", e.g. {slow_encrypts[0].brief()}" if slow_encrypts else "")
        )

    records = _records(workdir, who)[recorded_before:]
    if len(records) != REPEATS:
        problems.append(f"{len(records)} BackupKey records for {REPEATS} calls")
    for size, record in records:
        if size > RECORD_BUDGET:
            problems.append(f"a record of {size} B > {RECORD_BUDGET} B")
        custody = record.get("custody")
        if isinstance(custody, dict) and "recipient" in custody:
            problems.append(f"a record names a recipient for a PEM that is not one: {custody}")
    slowest = max(a.seconds for a in answers)
    print(f"{who}, {shape}: slowest of {REPEATS} answers {slowest:.3f} s; {len(meanwhile)} Encrypts meanwhile")
    assert not problems, f"{who}, {shape}:\n" + "\n".join(problems)


def test_the_exporter_still_backs_up_for_a_real_recipient(target: Target, workdir: Path) -> None:
    """Positive control: the bound refuses nothing a tool writes, and the trail names the recipient."""
    public_key = rsa.generate_private_key(public_exponent=65537, key_size=3072).public_key()
    pem = public_key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    spki = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    # CRLF line breaks and whitespace around, as a file copied from another system may have.
    crlf = "\r\n  " + pem.decode("ascii").replace("\n", "\r\n") + "\r\n"
    with connect(target) as stubs:
        answer = _backup(stubs, crlf, EXPORTER.metadata)
        refused = _backup(stubs, crlf, NO_EXPORT.metadata)
    assert answer.ok, answer.brief()
    assert refused.code == grpc.StatusCode.PERMISSION_DENIED, refused.brief()
    recipient = "sha256:" + hashlib.sha256(spki).hexdigest()
    asked = {"wrapping_algorithm": "RSA_AES_KEY_WRAP_SHA256_3072", "recipient": recipient}
    assert _records(workdir, EXPORTER.name)[-1][1].get("custody") == {**asked, "versions": [1]}
    assert _records(workdir, NO_EXPORT.name)[-1][1].get("custody") == asked

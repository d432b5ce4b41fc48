"""Issue 19's new surface, attacked: destroying is its own operation, a key's lifecycle is no oracle for a
caller refused on it, and the audit trail cannot be bloated or broken by what a caller sends.

Budgets:
- 0 destructions, deletions or retirements by a caller with `admin` only (PERMISSION_DENIED); a caller
  with `destroy` schedules (positive control).
- A refused caller's answers for a disabled key, a key pending deletion, a ciphertext under a version
  scheduled for destruction and a missing key are the same status, reason and message (the key name
  aside): 0 bits about lifecycle states.
- Each call of an anonymous or refused caller adds at most 2 KiB to the audit trail, whatever it sends
  (200 KB key names, 1 MiB contexts, 4,096-item batches); a key name built to break the JSON line stays
  inside its record; the trail still verifies as one intact chain after the attack.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from answers import Answer, unary
from certs import Pem
from conftest import fresh
from google.protobuf.duration_pb2 import Duration
from keyring import create_key, encrypt
from policy import ANONYMOUS_METADATA, Caller, Rule, write_policy
from servers import Pki, Target, connect, serve, tls_and_policy

from cipherd.audit import verify
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb

EVERY_KEY = ("*",)
ADMIN = Caller("lc-admin", [Rule(EVERY_KEY, ["encrypt", "decrypt", "admin", "inspect"])])
ADMIN_ONLY = Caller("lc-admin-only", [Rule(EVERY_KEY, ["admin"])])
DESTROYER = Caller("lc-destroyer", [Rule(EVERY_KEY, ["destroy"])])
REFUSED = Caller("lc-refused", [Rule(["nothing-*"], ["encrypt", "decrypt"])])
RECORD_BUDGET = 2048
DAY = Duration(seconds=24 * 3600)


@pytest.fixture(scope="module")
def audited(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[tuple[Target, Path]]:
    d = tmp_path_factory.mktemp("lifecycle-audit")
    policy = write_policy(d / "policy.yaml", [ADMIN, ADMIN_ONLY, DESTROYER, REFUSED])
    trail = d / "audit.log"
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            "--audit-log",
            str(trail),
            "--audit-required",
        ],
        ca=pki.pem,
    ) as target:
        yield target, trail


def test_admin_alone_cannot_destroy(audited: tuple[Target, Path]) -> None:
    target, _ = audited
    key = fresh("destroy-target")
    with connect(target) as stubs:
        create_key(stubs, ADMIN.metadata, key)
        stubs.admin.RotateKey(admin_pb.RotateKeyRequest(key_name=key), metadata=ADMIN.metadata, timeout=30)
        attempts: dict[str, Callable[[Caller], Answer]] = {
            "schedule": lambda who: unary(
                stubs.admin.ScheduleKeyVersionDestruction,
                admin_pb.ScheduleKeyVersionDestructionRequest(key_name=key, versions=[1], pending_window=DAY),
                who.metadata,
            ),
            "delete": lambda who: unary(
                stubs.admin.ScheduleKeyDeletion,
                admin_pb.ScheduleKeyDeletionRequest(key_name=key, pending_window=DAY),
                who.metadata,
            ),
            "retire": lambda who: unary(
                stubs.admin.RetireKeyVersions,
                admin_pb.RetireKeyVersionsRequest(key_name=key, below_version=2, validate_only=True),
                who.metadata,
            ),
        }
        by_admin = {name: attempt(ADMIN_ONLY) for name, attempt in attempts.items()}
        by_destroyer = attempts["schedule"](DESTROYER)
    wrong = {name: a.brief() for name, a in by_admin.items() if a.code != grpc.StatusCode.PERMISSION_DENIED}
    assert not wrong, f"an admin-only caller was not refused: {wrong}"
    assert by_destroyer.ok, f"destroy caller (positive control): {by_destroyer.brief()}"


def _same_but_name(a: Answer, b: Answer, name_a: str, name_b: str) -> bool:
    return (a.code, a.reason, a.message.replace(name_a, "K")) == (b.code, b.reason, b.message.replace(name_b, "K"))


def test_a_refused_caller_learns_no_lifecycle_state(audited: tuple[Target, Path]) -> None:
    target, _ = audited
    disabled, deleting, scheduled, missing = (fresh(p) for p in ("disabled", "deleting", "scheduled", "missing"))
    with connect(target) as stubs:
        for key in (disabled, deleting, scheduled):
            create_key(stubs, ADMIN.metadata, key)
        old = encrypt(stubs, ADMIN.metadata, scheduled, b"old")
        stubs.admin.RotateKey(admin_pb.RotateKeyRequest(key_name=scheduled), metadata=ADMIN.metadata, timeout=30)
        stubs.admin.DisableKey(admin_pb.DisableKeyRequest(key_name=disabled), metadata=ADMIN.metadata, timeout=30)
        stubs.admin.ScheduleKeyDeletion(
            admin_pb.ScheduleKeyDeletionRequest(key_name=deleting, pending_window=DAY),
            metadata=DESTROYER.metadata,
            timeout=30,
        )
        stubs.admin.ScheduleKeyVersionDestruction(
            admin_pb.ScheduleKeyVersionDestructionRequest(key_name=scheduled, versions=[1], pending_window=DAY),
            metadata=DESTROYER.metadata,
            timeout=30,
        )
        # The positive control: the granted caller does see the states.
        seen = unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=old), ADMIN.metadata)
        assert seen.reason == "KEY_VERSION_DESTRUCTION_SCHEDULED", seen.brief()

        def enc(key: str) -> Answer:
            return unary(stubs.crypto.Encrypt, pb.EncryptRequest(key_name=key, plaintext=b"x"), REFUSED.metadata)

        baseline = enc(missing)
        answers = {"disabled": enc(disabled), "deleting": enc(deleting), "scheduled": enc(scheduled)}
        names = {"disabled": disabled, "deleting": deleting, "scheduled": scheduled}
        missing_ct = old.replace(scheduled, missing)
        dec_missing = unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=missing_ct), REFUSED.metadata)
        dec_scheduled = unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=old), REFUSED.metadata)
    assert baseline.code == grpc.StatusCode.PERMISSION_DENIED, baseline.brief()
    differ = {n: a.brief() for n, a in answers.items() if not _same_but_name(a, baseline, names[n], missing)}
    assert not differ, f"a refused caller told a lifecycle state from a missing key: {differ} vs {baseline.brief()}"
    assert _same_but_name(dec_scheduled, dec_missing, scheduled, missing), (
        f"Decrypt: {dec_scheduled.brief()} vs {dec_missing.brief()}"
    )


def _huge_requests() -> list[tuple[str, str, object]]:
    big_name = "k" * 200_000
    items = [pb.EncryptBatchItem(plaintext=b"x", context=b"c" * 256) for _ in range(4096)]
    return [
        ("Encrypt 200 KB key name", "Encrypt", pb.EncryptRequest(key_name=big_name, plaintext=b"x")),
        (
            "Encrypt 1 MiB context",
            "Encrypt",
            pb.EncryptRequest(key_name="nothing-here", plaintext=b"x", context=b"c" * (1 << 20)),
        ),
        ("EncryptBatch 4,096 items", "EncryptBatch", pb.EncryptBatchRequest(key_name="secret-key", items=items)),
        (
            "Encrypt JSON-breaking key name",
            "Encrypt",
            pb.EncryptRequest(key_name='x"}\n{"type":"call","seq":999999}\n', plaintext=b"x"),
        ),
        ("Decrypt 200 KB header", "Decrypt", pb.DecryptRequest(ciphertext=f"<{big_name}/v1:gcm>AAAA")),
    ]


def test_callers_cannot_bloat_or_break_the_audit_trail(audited: tuple[Target, Path]) -> None:
    target, trail = audited
    over: dict[str, int] = {}
    with connect(target) as stubs:
        for who, metadata in (("anonymous", ANONYMOUS_METADATA), ("refused", REFUSED.metadata)):
            for label, method, request in _huge_requests():
                before = trail.stat().st_size
                answer = unary(getattr(stubs.crypto, method), request, metadata)  # type: ignore[arg-type]
                assert not answer.ok, f"{who} {label} was served: {answer.brief()}"
                grown = trail.stat().st_size - before
                if grown > RECORD_BUDGET:
                    over[f"{who} {label}"] = grown
    assert not over, f"audit bytes per call over the {RECORD_BUDGET} B budget: {over}"
    lines = trail.read_bytes().split(b"\n")[:-1]
    records = [json.loads(line) for line in lines]
    injected = [r for r in records if r.get("seq") == 999999]
    assert not injected, "a key name wrote a record of its own into the trail"
    verdict = verify([trail])
    assert verdict.intact, f"the trail no longer verifies: {verdict.problem}"
    assert verdict.calls >= 10

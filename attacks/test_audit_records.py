"""Issue 28's findings F5 and F8, attacked from outside: a caller with `decrypt` on one key cannot make one
call's audit record large, nor (by killing the server right behind it) keep the server from starting again;
and a caller's `x-request-id` cannot make its records carry another call's id. (F7, two rotations in one
millisecond or a clock stepping back, is not reachable from outside in a bounded, reliable way: the server's
AuditFileTest drives it with a fixed clock.)

Budgets:
- A DecryptBatch of 4,096 items naming 4,096 keys the caller is refused on, and one naming 4,096 versions of
  the key it may decrypt, each add at most 4 KiB to the trail: at most 1 byte per refused item (today's main:
  484 KB and 245 KB). The record's counts still add up to its 4,096 items.
- SIGKILL right after such a record, and a copy of the trail cut at bytes inside it: the server starts again
  on either within its start-up timeout (120 s), and the trail verifies intact (the cut line counted as torn).
- A caller that sends another call's request id as `x-request-id`: 0 records and 0 access-log lines of its call
  carry that id as theirs; the caller's id is kept only as `client_request_id`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from answers import unary
from certs import Pem
from keyring import Envelope, create_key, encrypt
from policy import Caller, Rule, write_policy
from servers import Pki, Target, connect, serve, tls_and_policy

from cipherd.audit import verify
from cipherd.v1 import crypto_service_pb2 as pb

OWNER = Caller("rec-owner", [Rule(["*"], ["encrypt", "decrypt", "admin"])])
ITEMS = 4096
RECORD_BUDGET = 4096
KEY = "rec-one"
NARROW = Caller("rec-narrow", [Rule([KEY], ["decrypt"])])


def _args(d: Path, server_pem: Pem, trail: Path) -> list[str]:
    policy = write_policy(d / "policy.yaml", [OWNER, NARROW])
    # No checkpoint by time: the largest record is the trail's last line when the server is killed.
    return [
        *tls_and_policy(server_pem, policy),
        "--audit-log",
        str(trail),
        "--audit-required",
        "--audit-checkpoint-interval",
        "PT1H",
    ]


@pytest.fixture(scope="module")
def trail_server(
    tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem
) -> Iterator[tuple[Target, Path, list[str], Path]]:
    d = tmp_path_factory.mktemp("audit-records")
    trail = d / "audit.log"
    args = _args(d, server_pem, trail)
    with serve(d, args, ca=pki.pem) as target:
        with connect(target) as stubs:
            create_key(stubs, OWNER.metadata, KEY)
        yield target, trail, args, d


def _largest_batches(target: Target) -> dict[str, pb.DecryptBatchRequest]:
    with connect(target) as stubs:
        envelope = Envelope.parse(encrypt(stubs, OWNER.metadata, KEY, b"x"))
    refused = [envelope.with_key(f"rec-refused-{i:052d}") for i in range(ITEMS)]
    payload = envelope.with_payload(envelope.payload)[len(envelope.header) :]
    mode = envelope.header[envelope.header.index(":") :]  # ":gcm>"
    versions = [f"<{KEY}/v{v + 2}{mode}{payload}" for v in range(ITEMS)]
    return {
        "4,096 refused keys": pb.DecryptBatchRequest(items=[pb.DecryptBatchItem(ciphertext=c) for c in refused]),
        "4,096 versions": pb.DecryptBatchRequest(items=[pb.DecryptBatchItem(ciphertext=c) for c in versions]),
    }


def _last_record(trail: Path) -> dict[str, Any]:
    line = trail.read_bytes().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    record: dict[str, Any] = json.loads(line)
    return record


def _accounted(record: dict[str, Any]) -> int:
    rows = list(record["versions"])
    if "versions_folded" in record:
        rows.append(record["versions_folded"])
    return sum(sum(row["outcomes"].values()) for row in rows)


def test_a_batch_naming_4096_keys_or_versions_makes_a_bounded_record(
    trail_server: tuple[Target, Path, list[str], Path],
) -> None:
    target, trail, _, _ = trail_server
    grown: dict[str, int] = {}
    with connect(target) as stubs:
        for label, request in _largest_batches(target).items():
            before = trail.stat().st_size
            answer = unary(stubs.crypto.DecryptBatch, request, NARROW.metadata, timeout=60)
            assert answer.ok, f"{label}: {answer.brief()}"
            assert not any(r.HasField("plaintext") and r.plaintext for r in answer.response.results)
            grown[label] = trail.stat().st_size - before
            record = _last_record(trail)
            assert record["items"] == ITEMS and _accounted(record) == ITEMS, f"{label}: items not accounted"
            named = len(record["versions"]) + record.get("versions_folded", {}).get("key_versions", 0)
            assert named >= ITEMS, f"{label}: the batch did not reach {ITEMS} key versions ({named})"
    print(f"audit bytes per call: {grown}")  # the figures the budget is about (pytest -s)
    over = {label: size for label, size in grown.items() if size > RECORD_BUDGET}
    assert not over, f"audit bytes per call over the {RECORD_BUDGET} B budget ({ITEMS} refused items): {over}"


def test_sigkill_right_after_the_largest_record_never_keeps_the_server_down(
    tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem
) -> None:
    d = tmp_path_factory.mktemp("audit-records-kill")
    trail = d / "audit.log"
    args = _args(d, server_pem, trail)
    with serve(d, args, ca=pki.pem) as target:
        with connect(target) as stubs:
            create_key(stubs, OWNER.metadata, KEY)
            request = _largest_batches(target)["4,096 refused keys"]
            # With --audit-required the answer comes once the record is durable.
            assert unary(stubs.crypto.DecryptBatch, request, NARROW.metadata, timeout=60).ok
        target.server.process.kill()
        target.server.process.wait(timeout=30)
    assert _last_record(trail)["method"] == "cipherd.v1.CryptoService/DecryptBatch"
    whole = trail.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1

    # The crash came right after the record, or at a byte inside it (a copy cut there).
    cuts = {
        "after the record": len(whole),
        "mid-record": last_start + (len(whole) - last_start) // 2,
        "one byte in": last_start + 1,
    }
    for label, cut in cuts.items():
        copy = d / f"audit-{cut}.log"
        copy.write_bytes(whole[:cut])
        copy_args = [copy.as_posix() if a == trail.as_posix() else a for a in args]
        with serve(d, copy_args, ca=pki.pem) as restarted, connect(restarted) as stubs:
            assert encrypt(stubs, OWNER.metadata, KEY, b"after the crash"), label
        verdict = verify([copy])
        assert verdict.intact, f"{label}: the trail no longer verifies: {verdict.problem}"
        assert verdict.torn == (0 if label == "after the record" else 1), label


def test_a_callers_request_id_cannot_name_another_call(trail_server: tuple[Target, Path, list[str], Path]) -> None:
    target, trail, _, _ = trail_server
    with connect(target) as stubs:
        encrypt(stubs, OWNER.metadata, KEY, b"the victim's call")
        victim = str(_last_record(trail)["request_id"])
        # Another caller sends the victim's id, and then a 1 KiB one.
        for sent in (victim, victim * 64):
            answer = unary(
                stubs.crypto.Encrypt,
                pb.EncryptRequest(key_name=KEY, plaintext=b"x"),
                (*NARROW.metadata, ("x-request-id", sent)),
            )
            record = _last_record(trail)
            assert record["request_id"] != victim, f"its record carries the victim's id ({answer.brief()})"
    records = [json.loads(line) for line in trail.read_bytes().splitlines() if line.startswith(b"{")]
    carrying = [r for r in records if r.get("request_id") == victim]
    assert len(carrying) == 1, f"{len(carrying)} records carry the victim's request id as theirs"
    borrowed = [r for r in records if r.get("client_request_id") == victim]
    assert borrowed, "the caller's x-request-id is not kept as client_request_id"
    longest = max(len(str(r.get("client_request_id", ""))) for r in records)
    assert longest <= 64, f"a caller's request id kept at {longest} characters"
    access = [line for line in target.server.log if "cipherd.access" in line and f"[{victim}]" in line]
    assert len(access) <= 1, f"{len(access)} access-log lines carry the victim's id: {access}"

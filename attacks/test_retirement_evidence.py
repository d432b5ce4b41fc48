"""Issue 27's new surface, attacked: a failed call counts as use of the version it names, a use of a version
pending destruction is counted (and, by a key setting, cancels the destruction), and a retirement takes
inventories of the stored data as evidence. What can a caller with the smallest grant, or none, hold?

Budgets:
- 0 failures, 0 uses of a version pending destruction and 0 cancelled destructions counted from anonymous
  and refused callers (UNAUTHENTICATED, PERMISSION_DENIED), whatever they send: Decrypt, ReEncrypt and a
  1,024-item DecryptBatch of ciphertexts whose headers name real versions (one failing on its context,
  one under a version pending destruction of a key with cancel_destruction_on_use). So an outsider cannot
  keep a version from retiring, nor undo a scheduled destruction. Positive control: a caller with `decrypt`
  counts one failure, one pending-destruction use, and its use cancels the destruction.
- A caller allowed to decrypt can keep a version in use by failing on purpose. That is intended: any
  attempt shows data under the version exists, and that caller could read it anyway. Its cost is bounded:
  a few counters per version in memory (no per-caller state), one store write per merge interval, at most
  one cancellation queued per version.
- RetireKeyVersions with the largest inventories (100 of 1,000 versions each, 256-character sources) from
  anonymous and refused callers: refused, each answer at most 1 KiB, each call at most 2 KiB of audit
  trail (the inventories of a refused caller are not recorded); over the limits, a `destroy` caller gets
  INVALID_ARGUMENT.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from answers import Answer, unary
from certs import Pem
from conftest import fresh
from google.protobuf.duration_pb2 import Duration
from keyring import TIMEOUT_S, encrypt
from policy import ANONYMOUS_METADATA, Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, metric_sum, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

EVERY_KEY = ("*",)
OWNER = Caller("ev-owner", [Rule(EVERY_KEY, ["encrypt", "admin", "inspect"])])
READER = Caller("ev-reader", [Rule(EVERY_KEY, ["decrypt", "reencrypt"])])
DESTROYER = Caller("ev-destroyer", [Rule(EVERY_KEY, ["destroy"])])
REFUSED = Caller("ev-refused", [Rule(["nothing-*"], ["encrypt", "decrypt", "reencrypt", "destroy"])])
OUTSIDERS = (("anonymous", ANONYMOUS_METADATA), ("refused", REFUSED.metadata))
USES = "cipherd_key_version_pending_destruction_use_total"
REFUSALS = {"ACCESS_DENIED", "UNAUTHENTICATED"}
ANSWER_BUDGET = 1024
RECORD_BUDGET = 2048
DAY = Duration(seconds=24 * 3600)


@pytest.fixture(scope="module")
def evidence(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[tuple[Target, Path]]:
    d = tmp_path_factory.mktemp("retirement-evidence")
    policy = write_policy(d / "policy.yaml", [OWNER, READER, DESTROYER, REFUSED])
    trail = d / "audit.log"
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            "--audit-log",
            str(trail),
        ],
        ca=pki.pem,
    ) as target:
        yield target, trail


def _uses(target: Target) -> float:
    """The pending-destruction uses this server counted, from its /metrics."""
    return metric_sum(target, USES)


def _version(stubs: Stubs, key: str, number: int) -> keys_pb2.KeyVersion:
    found = stubs.admin.GetKey(admin_pb.GetKeyRequest(key_name=key), metadata=OWNER.metadata, timeout=TIMEOUT_S)
    return next(v for v in found.key.versions if v.version == number)


def _key_with_old_version(stubs: Stubs, key: str, *, cancel_on_use: bool, context: bytes = b"") -> str:
    stubs.admin.CreateKey(
        admin_pb.CreateKeyRequest(key_name=key, policy=keys_pb2.KeyPolicy(cancel_destruction_on_use=cancel_on_use)),
        metadata=OWNER.metadata,
        timeout=TIMEOUT_S,
    )
    old = encrypt(stubs, OWNER.metadata, key, b"cold row", context)
    stubs.admin.RotateKey(admin_pb.RotateKeyRequest(key_name=key), metadata=OWNER.metadata, timeout=TIMEOUT_S)
    return old


def test_outsiders_count_no_failure_and_cancel_no_destruction(evidence: tuple[Target, Path]) -> None:
    target, _ = evidence
    failing, pending = fresh("ev-failing"), fresh("ev-pending")
    with connect(target) as stubs:
        with_context = _key_with_old_version(stubs, failing, cancel_on_use=False, context=b"users.email/7")
        cold = _key_with_old_version(stubs, pending, cancel_on_use=True)
        stubs.admin.ScheduleKeyVersionDestruction(
            admin_pb.ScheduleKeyVersionDestructionRequest(key_name=pending, versions=[1], pending_window=DAY),
            metadata=DESTROYER.metadata,
            timeout=TIMEOUT_S,
        )
        uses_before = _uses(target)
        served: dict[str, str] = {}
        for who, metadata in OUTSIDERS:
            for ciphertext in (with_context, cold):
                attempts: dict[str, Answer] = {
                    "Decrypt": unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=ciphertext), metadata),
                    "ReEncrypt": unary(stubs.crypto.ReEncrypt, pb.ReEncryptRequest(ciphertext=ciphertext), metadata),
                }
                batch = unary(
                    stubs.crypto.DecryptBatch,
                    pb.DecryptBatchRequest(items=[pb.DecryptBatchItem(ciphertext=ciphertext) for _ in range(1024)]),
                    metadata,
                )
                # A batch is refused as a whole, or item by item.
                items = {r.error.reason for r in batch.response.results} if batch.ok else {batch.reason}
                if not items <= REFUSALS:
                    served[f"{who} DecryptBatch"] = str(items)
                for name, answer in attempts.items():
                    if answer.reason not in REFUSALS:
                        served[f"{who} {name}"] = answer.brief()
        assert not served, f"outsiders reached a key version: {served}"
        time.sleep(1.0)  # a cancellation, had one been queued, is written off the calling thread

        failures = _version(stubs, failing, 1).usage.failures + _version(stubs, pending, 1).usage.failures
        uses = _uses(target) - uses_before
        state = _version(stubs, pending, 1).state
        assert (failures, uses) == (0, 0), f"outsiders' calls counted: {failures} failures, {uses} pending uses"
        assert state == keys_pb2.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED, "an outsider cancelled a destruction"

        # Positive control: a caller allowed to decrypt counts, and its use cancels the destruction.
        assert (
            unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=with_context), READER.metadata).reason
            == "DECRYPTION_FAILED"
        )
        assert _version(stubs, failing, 1).usage.failures == 1
        assert (
            unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=cold), READER.metadata).reason
            == "KEY_VERSION_DESTRUCTION_SCHEDULED"
        )
        assert _uses(target) - uses_before == 1
        deadline = time.monotonic() + 10
        while _version(stubs, pending, 1).state != keys_pb2.KEY_VERSION_STATE_ENABLED:
            assert time.monotonic() < deadline, "the reader's use did not cancel the destruction"
            time.sleep(0.05)
        assert unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=cold), READER.metadata).ok


def _largest_inventories(key: str, count: int = 100) -> list[admin_pb.DataInventory]:
    return [
        admin_pb.DataInventory(
            key_name=key,
            source=f"{i:03d}" + "s" * 253,
            items_scanned=2**62,
            versions=[admin_pb.VersionCount(version=v, ciphertexts=2**62) for v in range(1, 1001)],
        )
        for i in range(count)
    ]


def test_outsiders_cannot_bloat_the_trail_with_inventories(evidence: tuple[Target, Path]) -> None:
    target, trail = evidence
    key = fresh("ev-retire")
    over: dict[str, str] = {}
    with connect(target) as stubs:
        _key_with_old_version(stubs, key, cancel_on_use=False)
        request = admin_pb.RetireKeyVersionsRequest(
            key_name=key, below_version=2, validate_only=True, inventories=_largest_inventories(key)
        )
        assert request.ByteSize() > 1_000_000  # the attack sends a megabyte of evidence
        for who, metadata in OUTSIDERS:
            before = trail.stat().st_size
            answer = unary(stubs.admin.RetireKeyVersions, request, metadata)
            time.sleep(0.2)  # the record is written in the background without --audit-required
            grown = trail.stat().st_size - before
            if answer.code not in (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED):
                over[f"{who} answer"] = answer.brief()
            if answer.size > ANSWER_BUDGET or grown > RECORD_BUDGET:
                over[f"{who} size"] = f"answer {answer.size} B, audit {grown} B"
        too_many = admin_pb.RetireKeyVersionsRequest(
            key_name=key, below_version=2, validate_only=True, inventories=_largest_inventories(key, 101)[:101]
        )
        refused_by_limit = unary(stubs.admin.RetireKeyVersions, too_many, DESTROYER.metadata)
    assert not over, f"outsiders' inventories: {over}"
    assert refused_by_limit.code == grpc.StatusCode.INVALID_ARGUMENT, refused_by_limit.brief()
    assert "at most 100" in refused_by_limit.message

"""Issue 28, finding F4: a usage cap that batches and streams step over.

A key's `max_encryptions_per_version` is 3. A caller with only `encrypt` on the key sends one EncryptBatch of
120 items, six EncryptBatches of 20 at once, one EncryptStream of 30 items, and 48 unary Encrypts at once
pinned to version 1 (after the owner rotated); and, on a key whose cap of 10,000 is large enough for batches
to reserve their encryptions in blocks (issue 30), twelve EncryptBatches of 1,000 at once. Before the fix the cap was checked once per batch or stream
window and counted after: 1,000 ciphertexts under v1 from one batch of 1,000 (120 of 120 here). Budget: 0 ciphertexts past
the cap of any version on one replica; every item answered (a ciphertext, or its own POLICY_DENIED refusal
for the pinned version); a batch or stream past the cap goes on under the versions the key rotates to."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
from answers import Answer, stream, unary
from certs import Pem
from conftest import fresh
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

CAP = 3
TIMEOUT_S = 120.0
OWNER = Caller("cap-owner", [Rule(["*"], ["admin"])])
ENCRYPTOR = Caller("cap-encryptor", [Rule(["*"], ["encrypt"])])
LARGE_CAP = 10_000  # 64 x a block of 64 of room and more: batches reserve in blocks until near it
_VERSION = re.compile(r"^<[^/>]+/v(\d+):")


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("usage-caps")
    policy = write_policy(d / "policy.yaml", [OWNER, ENCRYPTOR])
    with serve(
        d,
        tls_and_policy(server_pem, policy),
        ca=pki.pem,
    ) as t:
        yield t


def _capped_key(stubs: Stubs, prefix: str, cap: int = CAP) -> str:
    key = fresh(prefix)
    stubs.admin.CreateKey(
        admin_pb.CreateKeyRequest(key_name=key, policy=keys_pb2.KeyPolicy(max_encryptions_per_version=cap)),
        metadata=OWNER.metadata,
        timeout=TIMEOUT_S,
    )
    return key


def _batch(key: str, items: int) -> pb.EncryptBatchRequest:
    return pb.EncryptBatchRequest(
        key_name=key,
        items=[pb.EncryptBatchItem(reference=f"r{i}", plaintext=f"item {i}".encode()) for i in range(items)],
    )


def _past_cap(ciphertexts: list[str], cap: int = CAP) -> tuple[int, Counter[int]]:
    """Ciphertexts made past the cap, summed over versions, and how many each version made."""
    per_version: Counter[int] = Counter()
    for ciphertext in ciphertexts:
        match = _VERSION.match(ciphertext)
        assert match, f"not a ciphertext: {ciphertext[:40]!r}"
        per_version[int(match.group(1))] += 1
    return sum(max(0, n - cap) for n in per_version.values()), per_version


def _batch_ciphertexts(answer: Answer, items: int) -> list[str]:
    assert answer.ok, answer.brief()
    results = answer.response.results
    assert len(results) == items, f"{items - len(results)} items not answered"
    failed = [r.error for r in results if r.WhichOneof("outcome") != "ciphertext"]
    assert not failed, f"{len(failed)} items failed on a key that can rotate: {failed[0]}"
    return [r.ciphertext for r in results]


def test_one_batch_makes_at_most_the_cap_under_each_version(target: Target) -> None:
    with connect(target) as stubs:
        key = _capped_key(stubs, "cap-batch")
        answer = unary(stubs.crypto.EncryptBatch, _batch(key, 120), ENCRYPTOR.metadata, TIMEOUT_S)
    past, per_version = _past_cap(_batch_ciphertexts(answer, 120))
    assert per_version[1] == CAP, f"v1 made {per_version[1]}"
    assert past == 0, f"{past} ciphertexts past the cap of {CAP} (per version: {dict(per_version)})"


def test_six_concurrent_batches_make_at_most_the_cap_under_each_version(target: Target) -> None:
    with connect(target) as stubs:
        key = _capped_key(stubs, "cap-batches")
        with ThreadPoolExecutor(6) as pool:
            answers = list(
                pool.map(
                    lambda _: unary(stubs.crypto.EncryptBatch, _batch(key, 20), ENCRYPTOR.metadata, TIMEOUT_S), range(6)
                )
            )
    ciphertexts = [c for answer in answers for c in _batch_ciphertexts(answer, 20)]
    past, per_version = _past_cap(ciphertexts)
    assert past == 0, f"{past} ciphertexts past the cap of {CAP} (per version: {dict(per_version)})"


def test_a_stream_makes_at_most_the_cap_under_each_version(target: Target) -> None:
    with connect(target) as stubs:
        key = _capped_key(stubs, "cap-stream")
        responses, answer = stream(
            stubs.crypto.EncryptStream,
            [pb.EncryptStreamRequest(reference=f"r{i}", key_name=key, plaintext=b"streamed") for i in range(30)],
            ENCRYPTOR.metadata,
            TIMEOUT_S,
        )
    assert answer.ok, answer.brief()
    assert len(responses) == 30, f"{30 - len(responses)} items not answered"
    assert all(r.result.WhichOneof("outcome") == "ciphertext" for r in responses)
    past, per_version = _past_cap([r.result.ciphertext for r in responses])
    assert past == 0, f"{past} ciphertexts past the cap of {CAP} (per version: {dict(per_version)})"


def test_concurrent_calls_pinned_to_a_version_get_its_cap_and_each_other_is_refused(target: Target) -> None:
    with connect(target) as stubs:
        key = _capped_key(stubs, "cap-pinned")
        stubs.admin.RotateKey(admin_pb.RotateKeyRequest(key_name=key), metadata=OWNER.metadata, timeout=TIMEOUT_S)
        request = pb.EncryptRequest(key_name=key, key_version=1, plaintext=b"pinned")
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda _: unary(stubs.crypto.Encrypt, request, ENCRYPTOR.metadata), range(48)))
    made = [a.response.ciphertext for a in answers if a.ok]
    refused = [a for a in answers if not a.ok]
    past, _ = _past_cap(made)
    assert past == 0 and len(made) == CAP, f"{len(made)} ciphertexts under pinned v1, cap {CAP}"
    assert {(a.code, a.reason) for a in refused} == {(grpc.StatusCode.FAILED_PRECONDITION, "POLICY_DENIED")}
    assert all("has reached its limit of 3 encryptions" in a.message for a in refused)


def test_concurrent_large_batches_reserving_in_blocks_make_exactly_the_cap_and_count_it(target: Target) -> None:
    """Batches far from the cap reserve 64 encryptions at a time: v1 must make exactly the cap (a block another
    batch held and did not use must neither let it pass the cap nor rotate the key early), and the key's usage
    must count exactly the ciphertexts each version made."""
    with connect(target) as stubs:
        key = _capped_key(stubs, "cap-blocks", LARGE_CAP)
        with ThreadPoolExecutor(12) as pool:
            answers = list(
                pool.map(
                    lambda _: unary(stubs.crypto.EncryptBatch, _batch(key, 1_000), ENCRYPTOR.metadata, TIMEOUT_S),
                    range(12),
                )
            )
        found = stubs.admin.GetKey(admin_pb.GetKeyRequest(key_name=key), metadata=OWNER.metadata, timeout=TIMEOUT_S)
    ciphertexts = [c for answer in answers for c in _batch_ciphertexts(answer, 1_000)]
    past, per_version = _past_cap(ciphertexts, LARGE_CAP)
    assert past == 0, f"{past} ciphertexts past the cap of {LARGE_CAP} (per version: {dict(per_version)})"
    assert per_version[1] == LARGE_CAP, f"v1 made {per_version[1]} of its cap of {LARGE_CAP}: rotated early"
    counted = {v.version: v.usage.encryptions for v in found.key.versions}
    assert counted == dict(per_version), f"usage counts {counted}, ciphertexts made {dict(per_version)}"

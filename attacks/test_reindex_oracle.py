"""ReIndex as an oracle: a caller with `reindex` on the data keys and `index` on every key (the most a
re-indexing job could be given), and no `decrypt`, tries to learn more than the index values it is
entitled to.

Budgets, each per mode or case:
- plaintext: 0 bytes of any plaintext in any answer (success, status message, trailers, batch item
  error) over 64 re-indexes of random plaintexts, lengths 8 to 32, with and without normalization;
  a success holds exactly an index of the asked length and two version numbers.
- tampered, wrong context, another key's header, truncated (gcm, chacha, xgcm, siv): 64 probes per
  mode, unary and batch items, 1 distinct answer (INVALID_ARGUMENT, DECRYPTION_FAILED, "decryption
  failed"), the same as Decrypt gives a caller that may decrypt.
- a key that is not an index key as the index key (gcm, siv, chacha, cbc): 0 answers with bytes in
  them; the same refusal for a good and a tampered ciphertext (decided before decrypting).
- unauthenticated modes (cbc, ctr, cfb, ofb, ecb): 64 tampered ciphertexts per mode (good and bad
  padding, bit flips, pasted blocks), with normalization (a UTF-8 validity oracle) and without (a
  padding oracle), unary and batch: 0 distinguishable answers, all PERMISSION_DENIED with one
  message; positive control: `reindex` + `decrypt` re-indexes.
- request fields: length_bytes outside 8 to 32 and a bad expected_key are refused the same for a
  good and a tampered ciphertext (checked before decrypting).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest
from answers import Answer, Metadata, unary
from certs import Pem
from conftest import fresh
from keyring import Envelope, create_key, encrypt
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import keys_pb2

PROBES = 64
AUTHENTICATED = {
    "gcm": keys_pb2.MODE_GCM,
    "chacha": keys_pb2.MODE_CHACHA,
    "xgcm": keys_pb2.MODE_XGCM,
    "siv": keys_pb2.MODE_SIV,
}
UNAUTHENTICATED = {
    "cbc": keys_pb2.MODE_CBC,
    "ctr": keys_pb2.MODE_CTR,
    "cfb": keys_pb2.MODE_CFB,
    "ofb": keys_pb2.MODE_OFB,
    "ecb": keys_pb2.MODE_ECB,
}
TEXT = pb.Normalization(trim=True, nfkc=True, casefold=True)
COLUMN = b"accounts.email"

ADMIN = Caller("admin", [Rule(["*"], ["encrypt", "decrypt", "admin", "index", "inspect"])])
REINDEXER = Caller("reindexer", [Rule(["*"], ["reindex", "index"])])
CBC_REINDEXER = Caller("cbc-reindexer", [Rule(["*"], ["reindex", "index", "decrypt"])])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("reindex")
    policy = write_policy(d / "policy.yaml", [ADMIN, REINDEXER, CBC_REINDEXER])
    with serve(
        d,
        tls_and_policy(server_pem, policy),
        ca=pki.pem,
    ) as target:
        yield target


def _reindex(
    stubs: Stubs,
    metadata: Metadata,
    ciphertext: str,
    index_key: str,
    *,
    context: bytes = COLUMN,
    normalization: pb.Normalization | None = TEXT,
    length: int = 16,
    expected_key: str = "",
) -> Answer:
    return unary(
        stubs.crypto.ReIndex,
        pb.ReIndexRequest(
            ciphertext=ciphertext,
            context=context,
            index_key_name=index_key,
            normalization=normalization,
            length_bytes=length,
            expected_key=expected_key,
        ),
        metadata,
    )


def _batch_errors(
    stubs: Stubs,
    metadata: Metadata,
    ciphertexts: list[str],
    index_key: str,
    *,
    context: bytes = COLUMN,
    normalization: pb.Normalization | None = TEXT,
) -> list[tuple[object, ...]]:
    """Each item's answer as (index or None, code, reason, message)."""
    answer = unary(
        stubs.crypto.ReIndexBatch,
        pb.ReIndexBatchRequest(
            index_key_name=index_key,
            normalization=normalization,
            length_bytes=16,
            items=[
                pb.ReIndexBatchItem(reference=str(i), ciphertext=c, context=context) for i, c in enumerate(ciphertexts)
            ],
        ),
        metadata,
    )
    assert answer.ok, answer.brief()
    assert [r.reference for r in answer.response.results] == [str(i) for i in range(len(ciphertexts))]
    return [
        (r.index if r.HasField("index") else None, r.error.code, r.error.reason, r.error.message)
        for r in answer.response.results
    ]


def _keys(stubs: Stubs, data_mode: keys_pb2.Mode.ValueType, **flags: bool) -> tuple[str, str]:
    data, index = fresh("ri-data"), fresh("ri-idx")
    create_key(stubs, ADMIN.metadata, data, data_mode, **flags)
    create_key(stubs, ADMIN.metadata, index, keys_pb2.MODE_HMAC)
    return data, index


def test_a_reindexer_gets_index_values_and_never_a_plaintext_byte(server: Target) -> None:
    with connect(server) as stubs:
        data, index = _keys(stubs, keys_pb2.MODE_GCM)
        leaks = []
        for i in range(PROBES):
            plaintext = os.urandom(6).hex() + "@example.com"
            ciphertext = encrypt(stubs, ADMIN.metadata, data, plaintext.encode(), COLUMN)
            length = 8 + i % 25
            normalization = TEXT if i % 2 else None
            answer = _reindex(stubs, REINDEXER.metadata, ciphertext, index, normalization=normalization, length=length)
            assert answer.ok, answer.brief()
            response = answer.response
            assert len(response.index) == length and (response.key_version, response.source_key_version) == (1, 1)
            assert response.ByteSize() <= length + 6, "nothing but the index and two versions"
            # It is the index ComputeIndex gives for the plaintext: the value the grant entitles it to.
            expected = unary(
                stubs.crypto.ComputeIndex,
                pb.ComputeIndexRequest(
                    key_name=index, value=plaintext.encode(), normalization=normalization, length_bytes=length
                ),
                ADMIN.metadata,
            )
            assert response.index == expected.response.index
            if plaintext.encode()[:6] in response.SerializeToString():
                leaks.append(i)
        # A plaintext that normalization refuses: the message says why, never what.
        binary = bytes(range(0x80, 0xFF))
        refused = _reindex(stubs, REINDEXER.metadata, encrypt(stubs, ADMIN.metadata, data, binary, COLUMN), index)
        assert refused.code == grpc.StatusCode.INVALID_ARGUMENT and "UTF-8" in refused.message
        assert binary[:4].decode("latin-1") not in refused.message and binary[:4].hex() not in refused.message
    assert leaks == [], f"plaintext bytes in {len(leaks)} of {PROBES} answers"


@pytest.mark.parametrize("mode", sorted(AUTHENTICATED))
def test_tampered_wrong_context_and_wrong_key_are_one_answer(server: Target, mode: str) -> None:
    with connect(server) as stubs:
        data, index = _keys(stubs, AUTHENTICATED[mode])
        other, _ = _keys(stubs, AUTHENTICATED[mode])
        original = encrypt(stubs, ADMIN.metadata, data, b"attack at dawn, 32 bytes long...", COLUMN)
        assert _reindex(stubs, REINDEXER.metadata, original, index).ok, "positive control: reindex re-indexes"
        envelope = Envelope.parse(original)
        probes: list[tuple[str, bytes]] = []
        for i in range(PROBES):
            kind = i % 4
            if kind == 0:
                probes.append((envelope.flipped(i % len(envelope.payload), 1 << (i % 8)), COLUMN))
            elif kind == 1:
                probes.append((original, b"accounts.email2" if i % 8 == 1 else b""))
            elif kind == 2:
                probes.append((envelope.with_key(other), COLUMN))
            else:
                probes.append((envelope.with_payload(envelope.payload[: -1 - i % 8]), COLUMN))
        unary_answers = Counter(
            (a.code, a.reason, a.message)
            for a in (_reindex(stubs, REINDEXER.metadata, c, index, context=ctx) for c, ctx in probes)
        )
        batch_answers = Counter(
            item for c, ctx in probes for item in _batch_errors(stubs, REINDEXER.metadata, [c], index, context=ctx)
        )
        decrypt_answer = unary(
            stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=probes[0][0], context=COLUMN), ADMIN.metadata
        )
    assert dict(unary_answers) == {
        (grpc.StatusCode.INVALID_ARGUMENT, "DECRYPTION_FAILED", "decryption failed"): PROBES
    }, f"{mode}: {dict(unary_answers)}"
    assert len(batch_answers) == 1 and next(iter(batch_answers))[2:] == ("DECRYPTION_FAILED", "decryption failed"), (
        f"{mode} batch items: {dict(batch_answers)}"
    )
    assert (decrypt_answer.reason, decrypt_answer.message) == ("DECRYPTION_FAILED", "decryption failed")


@pytest.mark.parametrize("mode", ["gcm", "siv", "chacha", "cbc"])
def test_a_key_that_is_not_an_index_key_gives_no_bytes(server: Target, mode: str) -> None:
    modes = {**AUTHENTICATED, **UNAUTHENTICATED}
    with connect(server) as stubs:
        data, _ = _keys(stubs, keys_pb2.MODE_GCM)
        not_index = fresh(f"ri-{mode}")
        create_key(stubs, ADMIN.metadata, not_index, modes[mode], allow_unauthenticated=mode == "cbc")
        original = encrypt(stubs, ADMIN.metadata, data, b"alice@example.com", COLUMN)
        tampered = Envelope.parse(original).flipped(-1, 1)
        answers = [
            _reindex(stubs, REINDEXER.metadata, c, not_index, normalization=n, length=length)
            for c in (original, tampered)
            for n in (TEXT, None)
            for length in (8, 32)
        ]
    assert not any(a.ok for a in answers), f"{mode} as an index key answered bytes"
    kinds = Counter((a.code, a.reason, a.message) for a in answers)
    assert len(kinds) == 1, f"{mode}: good and tampered ciphertexts answered apart: {dict(kinds)}"
    code, reason, _ = next(iter(kinds))
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "POLICY_DENIED")


def _padding_probes(stubs: Stubs, key: str, mode: str, original: str) -> list[str]:
    """Good and bad padding (cbc, ecb), bit flips (ctr, cfb, ofb), pasted blocks (ecb), as in
    test_unauthenticated_modes.py."""
    envelope = Envelope.parse(original)
    if mode == "cbc":
        return (
            [original]
            + [envelope.flipped(i % 15, 1 + i // 15) for i in range(PROBES // 2 - 1)]
            + [envelope.flipped(15, d) for d in range(1, PROBES // 2 + 1)]
        )
    if mode == "ecb":
        pasted = []
        for _ in range(PROBES // 2):
            donor = Envelope.parse(encrypt(stubs, ADMIN.metadata, key, os.urandom(20))).payload
            pasted.append(envelope.with_payload(donor[:16] + envelope.payload[16:]))
        return pasted + [envelope.flipped(16 + i % 16, 1 + i // 16) for i in range(PROBES // 2)]
    return [original] + [envelope.flipped(i % len(envelope.payload), 1 << (i % 8)) for i in range(PROBES - 1)]


@pytest.mark.parametrize("mode", sorted(UNAUTHENTICATED))
def test_unauthenticated_modes_are_no_padding_or_utf8_oracle(server: Target, mode: str) -> None:
    with connect(server) as stubs:
        data, index = _keys(stubs, UNAUTHENTICATED[mode], allow_unauthenticated=True, allow_ecb=mode == "ecb")
        original = encrypt(stubs, ADMIN.metadata, data, b"A" * (20 if mode == "ecb" else 15))
        probes = _padding_probes(stubs, data, mode, original)
        assert len(probes) == PROBES
        # Positive control: with decrypt as well (it could read the plaintext anyway), it re-indexes.
        assert _reindex(stubs, CBC_REINDEXER.metadata, original, index, context=b"").ok

        answers: Counter[tuple[object, ...]] = Counter()
        for normalization in (TEXT, None):
            for probe in probes:
                a = _reindex(stubs, REINDEXER.metadata, probe, index, context=b"", normalization=normalization)
                answers[(a.code, a.reason, a.message)] += 1
            for item in _batch_errors(
                stubs, REINDEXER.metadata, probes, index, context=b"", normalization=normalization
            ):
                answers[("item", *item)] += 1
    unary_kinds = [k for k in answers if k[0] != "item"]
    item_kinds = [k for k in answers if k[0] == "item"]
    assert len(unary_kinds) == 1 and unary_kinds[0][:2] == (grpc.StatusCode.PERMISSION_DENIED, "ACCESS_DENIED"), (
        f"{mode}: {dict(answers)}"
    )
    assert len(item_kinds) == 1 and item_kinds[0][1] is None and item_kinds[0][3] == "ACCESS_DENIED", (
        f"{mode} batch items: {dict(answers)}"
    )


def test_request_fields_are_refused_before_decrypting(server: Target) -> None:
    with connect(server) as stubs:
        data, index = _keys(stubs, keys_pb2.MODE_GCM)
        original = encrypt(stubs, ADMIN.metadata, data, b"alice@example.com", COLUMN)
        tampered = Envelope.parse(original).flipped(-1, 1)
        for fields in ({"length": 7}, {"length": 33}, {"expected_key": "Not A Name"}, {"expected_key": "other-*"}):
            good, bad = (_reindex(stubs, REINDEXER.metadata, c, index, **fields) for c in (original, tampered))
            assert not good.ok and (good.code, good.reason, good.message) == (bad.code, bad.reason, bad.message), (
                f"{fields}: {good.brief()} / {bad.brief()}"
            )
            assert good.code == grpc.StatusCode.INVALID_ARGUMENT

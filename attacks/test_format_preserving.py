"""Format-preserving keys (FF1, issue 34) against callers with the smallest grants, and against inputs
built to be expensive.

Budgets:
- mask-only caller (`mask` on every key): every MaskFormatted answer is the documented mask and
  nothing more (bullets everywhere but separators and the last four digits of a card); Decrypt,
  DecryptFormatted, DecryptFormattedBatch, ReEncryptFormatted, ReEncryptFormattedBatch,
  EncryptFormatted and the CryptoService's Decrypt and ReEncrypt are refused PERMISSION_DENIED for
  32 values each (good, tampered, outside the alphabet, missing version, version 0, a missing
  version), and all refusals of one method are one answer (code, reason, message): 0 bits about the
  value.
- a caller without `decrypt`: with `reencrypt` only, 64 ReEncryptFormatted answers hold no plaintext
  (the new value never equals it, masks refused); with `encrypt` only, ReEncryptFormatted and
  MaskFormatted are refused; positive controls: the owner decrypts the rewrapped values.
- hostile inputs, by a caller allowed everything: a value outside the alphabet, a 10 MB value (on a
  server taking 16 MiB messages), a 65,536-character alphabet (the largest, about 200 KB of UTF-8)
  and a value of 256 and 257 of its characters, a 65,537-character alphabet, a tiny domain with and
  without accept_small_domain: each refusal INVALID_ARGUMENT within 2 s (a 10 s deadline), at most
  1 KiB, never echoing the value; the largest accepted value encrypts within 2 s.
- streams (EncryptFormattedStream, DecryptFormattedStream, ReEncryptFormattedStream, driven through the generated
  stubs): the mask-only caller's 14 items per stream (the probes above) each come back as their own
  PERMISSION_DENIED item error, in order, with no value and version 0, all of one stream one answer (code, reason,
  message), and the stream itself ends OK; a value outside the alphabet, a 4 MB value and a tiny domain amid good
  items fail as their items (INVALID_ARGUMENT, at most 1 KiB, never echoing the value) while the good items around
  them succeed, the whole stream within 2 s; an unauthorised stream of 2,000 items gets 2,000 identical refusals of
  at most 256 B each within 20 s, and the key cache is asked fewer than 100 times meanwhile (its hit and miss
  counters: the server's background refresh only), where 200 allowed items ask it at least 200 times (positive
  control): the server does nothing per item beyond the refusal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import grpc
import pytest
import servers
from answers import Answer, stream, unary
from certs import Pem
from conftest import fresh
from keyring import create_key, encrypt
from policy import Caller, Rule, write_policy
from servers import Pki, Target, scrape, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import format_preserving_service_pb2 as fpe_pb
from cipherd.v1 import format_preserving_service_pb2_grpc as fpe_grpc
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

OWNER = Caller("owner", [Rule(["*"], ["admin", "encrypt", "decrypt"])])
MASKER = Caller("masker", [Rule(["*"], ["mask"])])
REWRAPPER = Caller("rewrapper", [Rule(["*"], ["reencrypt"])])
WRITER = Caller("writer", [Rule(["*"], ["encrypt"])])
COLUMN = b"payments.pan"
FAST_S = 2.0
DEADLINE_S = 10.0
MAX_REFUSAL = 1024
CARDS = [f"4{n:015d}" for n in range(1_234_567_890, 1_234_567_890 + 32)]


class Stubs(servers.Stubs):
    """The crypto and key-admin services, and the FormatPreservingService, over one channel."""

    def __init__(self, channel: grpc.Channel) -> None:
        super().__init__(channel)
        self.fpe = fpe_grpc.FormatPreservingServiceStub(channel)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("fpe")
    policy = write_policy(d / "policy.yaml", [OWNER, MASKER, REWRAPPER, WRITER])
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            "--max-message-bytes",
            str(16 * 1024 * 1024),
        ],
        ca=pki.pem,
    ) as target:
        yield target


@pytest.fixture()
def stubs(server: Target) -> Iterator[Stubs]:
    channel = server.channel()
    try:
        yield Stubs(channel)
    finally:
        channel.close()


def _card_key(stubs: Stubs) -> str:
    name = fresh("cards")
    fmt = keys_pb2.FpeFormat(template=keys_pb2.FPE_TEMPLATE_CARD_NUMBER, accept_small_domain=True)
    stubs.admin.CreateKey(
        admin_pb.CreateKeyRequest(key_name=name, mode=keys_pb2.MODE_FF1, fpe_format=fmt),
        metadata=OWNER.metadata,
        timeout=DEADLINE_S,
    )
    return name


def _encrypt(stubs: Stubs, key: str, value: str) -> fpe_pb.EncryptFormattedResponse:
    response: fpe_pb.EncryptFormattedResponse = stubs.fpe.EncryptFormatted(
        fpe_pb.EncryptFormattedRequest(key_name=key, value=value, context=COLUMN),
        metadata=OWNER.metadata,
        timeout=DEADLINE_S,
    )
    return response


def _shape(answers: list[Answer]) -> Counter[tuple[grpc.StatusCode, str, str]]:
    return Counter((a.code, a.reason, a.message) for a in answers)


def test_mask_only_caller_gets_masks_and_nothing_else(stubs: Stubs) -> None:
    key = _card_key(stubs)
    ciphertexts = [_encrypt(stubs, key, card).value for card in CARDS]
    for card, ciphertext in zip(CARDS, ciphertexts, strict=True):
        answer = unary(
            stubs.fpe.MaskFormatted,
            fpe_pb.MaskFormattedRequest(key_name=key, value=ciphertext, context=COLUMN, key_version=1),
            MASKER.metadata,
        )
        assert answer.ok, answer.brief()
        assert answer.response.masked == "•" * 12 + card[-4:]

    gcm = fresh("gcm")
    create_key(stubs, OWNER.metadata, gcm)
    sealed = encrypt(stubs, OWNER.metadata, gcm, b"4242424242424242")
    probes = [*ciphertexts[:8], "4242 4242 4242 424x", "1" * 16, ciphertexts[0][:-1] + "0", "x" * 300]
    calls: dict[str, Callable[[str], Answer]] = {
        "DecryptFormatted": lambda v: unary(
            stubs.fpe.DecryptFormatted,
            fpe_pb.DecryptFormattedRequest(key_name=key, value=v, context=COLUMN, key_version=1),
            MASKER.metadata,
        ),
        "DecryptFormatted v0": lambda v: unary(
            stubs.fpe.DecryptFormatted,
            fpe_pb.DecryptFormattedRequest(key_name=key, value=v, key_version=0),
            MASKER.metadata,
        ),
        "DecryptFormatted v99": lambda v: unary(
            stubs.fpe.DecryptFormatted,
            fpe_pb.DecryptFormattedRequest(key_name=key, value=v, key_version=99),
            MASKER.metadata,
        ),
        "DecryptFormattedBatch": lambda v: unary(
            stubs.fpe.DecryptFormattedBatch,
            fpe_pb.DecryptFormattedBatchRequest(
                key_name=key, key_version=1, items=[fpe_pb.FormattedBatchItem(value=v)]
            ),
            MASKER.metadata,
        ),
        "ReEncryptFormatted": lambda v: unary(
            stubs.fpe.ReEncryptFormatted,
            fpe_pb.ReEncryptFormattedRequest(key_name=key, value=v, context=COLUMN, key_version=1),
            MASKER.metadata,
        ),
        "ReEncryptFormattedBatch": lambda v: unary(
            stubs.fpe.ReEncryptFormattedBatch,
            fpe_pb.ReEncryptFormattedBatchRequest(
                key_name=key, key_version=1, items=[fpe_pb.FormattedBatchItem(value=v)]
            ),
            MASKER.metadata,
        ),
        "EncryptFormatted": lambda v: unary(
            stubs.fpe.EncryptFormatted,
            fpe_pb.EncryptFormattedRequest(key_name=key, value=v),
            MASKER.metadata,
        ),
        "Decrypt": lambda v: unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=sealed), MASKER.metadata),
        "ReEncrypt": lambda v: unary(stubs.crypto.ReEncrypt, pb.ReEncryptRequest(ciphertext=sealed), MASKER.metadata),
    }
    for method, call in calls.items():
        answers = [call(v) for v in probes]
        assert all(a.code == grpc.StatusCode.PERMISSION_DENIED for a in answers), (
            method,
            [a.brief() for a in answers],
        )
        assert len(_shape(answers)) == 1, (method, _shape(answers))
        assert all(a.size <= MAX_REFUSAL for a in answers), method
        assert not any(card in a.message for a in answers for card in CARDS)


def test_caller_without_decrypt_cannot_decrypt_through_rewrap_or_mask(stubs: Stubs) -> None:
    key = _card_key(stubs)
    pairs = [(card, _encrypt(stubs, key, card).value) for card in CARDS]
    stubs.admin.RotateKey(admin_pb.RotateKeyRequest(key_name=key), metadata=OWNER.metadata, timeout=DEADLINE_S)

    for card, ciphertext in pairs * 2:
        moved = unary(
            stubs.fpe.ReEncryptFormatted,
            fpe_pb.ReEncryptFormattedRequest(key_name=key, value=ciphertext, context=COLUMN, key_version=1),
            REWRAPPER.metadata,
        )
        assert moved.ok, moved.brief()
        assert moved.response.value != card
        assert moved.response.key_version == 2
        # Positive control: the owner reads the rewrapped value back.
        back = stubs.fpe.DecryptFormatted(
            fpe_pb.DecryptFormattedRequest(key_name=key, value=moved.response.value, context=COLUMN, key_version=2),
            metadata=OWNER.metadata,
            timeout=DEADLINE_S,
        )
        assert back.value == card

    for caller in (REWRAPPER, WRITER):
        masks = [
            unary(
                stubs.fpe.MaskFormatted,
                fpe_pb.MaskFormattedRequest(key_name=key, value=c, context=COLUMN, key_version=1),
                caller.metadata,
            )
            for _, c in pairs[:8]
        ]
        assert {a.code for a in masks} == {grpc.StatusCode.PERMISSION_DENIED}, caller.name
        assert len(_shape(masks)) == 1
    rewraps = [
        unary(
            stubs.fpe.ReEncryptFormatted,
            fpe_pb.ReEncryptFormattedRequest(key_name=key, value=c, context=COLUMN, key_version=1),
            WRITER.metadata,
        )
        for _, c in pairs[:8]
    ]
    assert {a.code for a in rewraps} == {grpc.StatusCode.PERMISSION_DENIED}
    assert len(_shape(rewraps)) == 1


def _create(stubs: Stubs, fmt: keys_pb2.FpeFormat) -> Answer:
    return unary(
        stubs.admin.CreateKey,
        admin_pb.CreateKeyRequest(key_name=fresh("shape"), mode=keys_pb2.MODE_FF1, fpe_format=fmt),
        OWNER.metadata,
        timeout=DEADLINE_S,
    )


def _refused_quickly(answer: Answer, secret: str = "") -> None:
    assert answer.code == grpc.StatusCode.INVALID_ARGUMENT, answer.brief()
    assert answer.seconds < FAST_S, answer.brief()
    assert answer.size <= MAX_REFUSAL, answer.brief()
    if secret:
        assert secret not in answer.message


def test_hostile_inputs_are_refused_quickly(stubs: Stubs) -> None:
    digits = _create(stubs, keys_pb2.FpeFormat(template=keys_pb2.FPE_TEMPLATE_DIGITS))
    assert digits.ok, digits.brief()
    key = digits.response.key.key_name
    small = _create(stubs, keys_pb2.FpeFormat(template=keys_pb2.FPE_TEMPLATE_DIGITS, accept_small_domain=True))
    small_key = small.response.key.key_name

    def enc(name: str, value: str) -> Answer:
        return unary(
            stubs.fpe.EncryptFormatted,
            fpe_pb.EncryptFormattedRequest(key_name=name, value=value),
            OWNER.metadata,
            timeout=DEADLINE_S,
        )

    _refused_quickly(enc(key, "12345a7890"), "12345a7890")
    _refused_quickly(enc(key, "9" * (10 * 1000 * 1000)))
    _refused_quickly(enc(key, "12345"), "12345")  # 100,000 values without accept_small_domain
    _refused_quickly(enc(small_key, "123"), "123")  # 1,000 values: below every floor
    assert enc(small_key, "1234").ok  # 10,000 values, walked
    _refused_quickly(
        unary(
            stubs.fpe.DecryptFormatted,
            fpe_pb.DecryptFormattedRequest(key_name=key, value="8" * (10 * 1000 * 1000), key_version=1),
            OWNER.metadata,
            timeout=DEADLINE_S,
        )
    )

    widest = "".join(chr(c) for c in range(0x10000, 0x10000 + 65_536))
    wide = _create(stubs, keys_pb2.FpeFormat(alphabet=widest))
    assert wide.ok, wide.brief()
    assert wide.seconds < FAST_S, wide.brief()
    wide_key = wide.response.key.key_name
    largest = enc(wide_key, widest[:256])
    assert largest.ok and largest.seconds < FAST_S, largest.brief()
    _refused_quickly(enc(wide_key, widest[:257]))
    _refused_quickly(enc(wide_key, widest[:10] + "a"))
    _refused_quickly(_create(stubs, keys_pb2.FpeFormat(alphabet=widest + "a")))
    _refused_quickly(_create(stubs, keys_pb2.FpeFormat(alphabet="aa")))


def _item_shapes(responses: Sequence[Any]) -> Counter[tuple[int, str, str]]:
    return Counter((r.result.error.code, r.result.error.reason, r.result.error.message) for r in responses)


def _stream_calls(stubs: Stubs, key: str) -> dict[str, Callable[[list[str], Sequence[tuple[str, str]]], Any]]:
    """Each format-preserving stream, sending one item per value, as (responses, answer)."""
    return {
        "EncryptFormattedStream": lambda values, md: stream(
            stubs.fpe.EncryptFormattedStream,
            [
                fpe_pb.EncryptFormattedStreamRequest(reference=str(i), key_name=key, value=v, context=COLUMN)
                for i, v in enumerate(values)
            ],
            md,
            timeout=DEADLINE_S * 3,
        ),
        "DecryptFormattedStream": lambda values, md: stream(
            stubs.fpe.DecryptFormattedStream,
            [
                fpe_pb.DecryptFormattedStreamRequest(
                    reference=str(i), key_name=key, value=v, context=COLUMN, key_version=i % 3
                )
                for i, v in enumerate(values)
            ],
            md,
            timeout=DEADLINE_S * 3,
        ),
        "ReEncryptFormattedStream": lambda values, md: stream(
            stubs.fpe.ReEncryptFormattedStream,
            [
                fpe_pb.ReEncryptFormattedStreamRequest(
                    reference=str(i), key_name=key, value=v, context=COLUMN, key_version=1 + i % 2 * 98
                )
                for i, v in enumerate(values)
            ],
            md,
            timeout=DEADLINE_S * 3,
        ),
    }


def test_mask_only_caller_is_refused_item_by_item_on_every_stream(stubs: Stubs) -> None:
    key = _card_key(stubs)
    ciphertexts = [_encrypt(stubs, key, card).value for card in CARDS[:8]]
    probes = [*ciphertexts, "4242 4242 4242 424x", "1" * 16, ciphertexts[0][:-1] + "0", "x" * 300, "", CARDS[0]]
    for method, call in _stream_calls(stubs, key).items():
        responses, answer = call(probes, MASKER.metadata)
        assert answer.ok, (method, answer.brief())
        assert [r.result.reference for r in responses] == [str(i) for i in range(len(probes))], method
        assert all(r.result.WhichOneof("outcome") == "error" for r in responses), method
        assert all(r.result.error.code == grpc.StatusCode.PERMISSION_DENIED.value[0] for r in responses), method
        assert all(r.result.key_version == 0 and r.result.source_key_version == 0 for r in responses), method
        assert len(_item_shapes(responses)) == 1, (method, _item_shapes(responses))
        assert all(r.ByteSize() <= MAX_REFUSAL for r in responses), method
        assert not any(card in r.result.error.message for r in responses for card in CARDS), method


def test_hostile_items_fail_as_items_with_bounded_cost(stubs: Stubs) -> None:
    digits = _create(stubs, keys_pb2.FpeFormat(template=keys_pb2.FPE_TEMPLATE_DIGITS))
    assert digits.ok, digits.brief()
    key = digits.response.key.key_name
    hostile = ["12345a7890", "9" * (4 * 1000 * 1000), "12345"]
    values = ["1234567890", hostile[0], "2345678901", hostile[1], "3456789012", hostile[2], "4567890123"]
    responses, answer = _stream_calls(stubs, key)["EncryptFormattedStream"](values, OWNER.metadata)
    assert answer.ok, answer.brief()
    assert answer.seconds < FAST_S, answer.brief()
    results = [r.result for r in responses]
    assert [r.reference for r in results] == [str(i) for i in range(len(values))]
    for i in (1, 3, 5):
        assert results[i].error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0], results[i]
        assert results[i].ByteSize() <= MAX_REFUSAL
        assert values[i][:64] not in results[i].error.message
    good = [results[i] for i in (0, 2, 4, 6)]
    assert all(r.WhichOneof("outcome") == "value" and r.key_version == 1 for r in good), good

    sealed = [r.value for r in good]
    back = [sealed[0], "8" * (4 * 1000 * 1000), sealed[1], "12a4567890", sealed[2]]
    decrypted, answer = stream(
        stubs.fpe.DecryptFormattedStream,
        [
            fpe_pb.DecryptFormattedStreamRequest(reference=str(i), key_name=key, value=v, key_version=1)
            for i, v in enumerate(back)
        ],
        OWNER.metadata,
        timeout=DEADLINE_S,
    )
    assert answer.ok and answer.seconds < FAST_S, answer.brief()
    assert [r.result.WhichOneof("outcome") for r in decrypted] == ["value", "error", "value", "error", "value"]
    assert all(r.result.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0] for r in decrypted[1::2])
    assert all(r.ByteSize() <= MAX_REFUSAL for r in decrypted[1::2])


def _key_cache_requests(server: Target) -> float:
    text = scrape(server)
    counts = re.findall(r"^cipherd_key_cache_requests_total\{[^}]*\} ([0-9.eE+]+)$", text, re.MULTILINE)
    assert len(counts) == 2, "the key cache's hit and miss counters"
    return sum(float(c) for c in counts)


def test_unauthorised_stream_costs_nothing_per_item_beyond_the_refusal(stubs: Stubs, server: Target) -> None:
    key = _card_key(stubs)
    values = [CARDS[i % len(CARDS)] for i in range(2_000)]
    for method, call in _stream_calls(stubs, key).items():
        before = _key_cache_requests(server)
        responses, answer = call(values, MASKER.metadata if method == "EncryptFormattedStream" else WRITER.metadata)
        assert answer.ok, (method, answer.brief())
        assert answer.seconds < 20.0, (method, answer.brief())
        assert len(responses) == len(values), method
        assert {r.result.error.code for r in responses} == {grpc.StatusCode.PERMISSION_DENIED.value[0]}, method
        assert len(_item_shapes(responses)) == 1, method
        assert max(r.ByteSize() for r in responses) <= 256, method
        asked = _key_cache_requests(server) - before
        # Only the server's own background (its periodic refresh of the keys it holds) may ask meanwhile.
        assert asked < 100, f"{method}: the 2,000 refused items asked the key cache {asked} times"

    # Positive control: the probe sees per-item work when there is some.
    before = _key_cache_requests(server)
    responses, answer = _stream_calls(stubs, key)["EncryptFormattedStream"](values[:200], OWNER.metadata)
    assert answer.ok and all(r.result.WhichOneof("outcome") == "value" for r in responses), answer.brief()
    assert _key_cache_requests(server) - before >= 200

"""Finding 1: a padding oracle on legacy AES-CBC keys through ReEncrypt.

The attacker holds only `reencrypt` (on every key) and sends an AES-CBC legacy ciphertext it has
modified, asking cipherd to rewrap it into the legacy key itself or into any other key. If good and bad
padding answer differently, it can decrypt any legacy ciphertext a byte at a time (Vaudenay, 2002).
Budget: 0 distinguishable answers in 64 probes (32 good padding, 32 bad, every last byte different),
for ReEncrypt, ReEncryptBatch items and ReEncryptStream items alike; and every answer a refusal made
before decrypting: PERMISSION_DENIED, since a legacy rewrap needs `decrypt` on the legacy key, or
INVALID_ARGUMENT when the target is the legacy key itself, which never encrypts."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
import pytest
from answers import stream, unary
from conftest import Callers, fresh
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from keyring import create_key
from servers import Target, connect

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

PROBES = 64
DENIED = grpc.StatusCode.PERMISSION_DENIED.value[0]
REFUSED = {DENIED, grpc.StatusCode.INVALID_ARGUMENT.value[0]}


@dataclass(frozen=True)
class Probe:
    data: bytes
    good_padding: bool


@dataclass(frozen=True)
class LegacySetup:
    legacy_key: str
    other_key: str
    probes: list[Probe]


def _probes(key: bytes) -> list[Probe]:
    """IV ‖ two AES-CBC blocks whose last plaintext block ends in a chosen byte: PKCS#7 padding of
    1–16 for the good ones, anything else (0, 17–255, or a run of the wrong length) for the bad."""
    probes = []
    for i in range(PROBES):
        first = os.urandom(16)
        if i % 2 == 0:
            pad = i // 2 % 16 + 1
            last = os.urandom(16 - pad) + bytes([pad]) * pad
        else:
            bad = [0, *range(17, 256)][(i * 37) % 240]
            last = os.urandom(15) + bytes([bad])
        iv = os.urandom(16)
        encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
        probes.append(Probe(iv + encryptor.update(first + last) + encryptor.finalize(), i % 2 == 0))
    return probes


@pytest.fixture(scope="module")
def legacy(policy_server: Target, callers: Callers) -> Iterator[LegacySetup]:
    key = os.urandom(32)
    setup = LegacySetup(fresh("legacy-cbc"), fresh("rewrap-target"), _probes(key))
    with connect(policy_server) as stubs:
        stubs.admin.ImportKey(
            admin_pb.ImportKeyRequest(
                key_name=setup.legacy_key,
                key_material=key,
                legacy_cipher=keys_pb2.LEGACY_CIPHER_AES_CBC,
                legacy_iv=keys_pb2.LEGACY_IV_PREPENDED,
            ),
            metadata=tuple(callers.admin.metadata),
            timeout=30,
        )
        create_key(stubs, callers.admin.metadata, setup.other_key)
        # Calibration: with `decrypt` and `encrypt` the probes do decrypt or fail as labelled, so the
        # attack below has an oracle to find if the server offers one.
        for probe in (setup.probes[0], setup.probes[1]):
            answer = unary(
                stubs.crypto.ReEncrypt, _unary_request(setup, probe, setup.other_key), callers.admin.metadata
            )
            assert answer.ok == probe.good_padding, f"calibration: {answer.brief()}"
    yield setup


def _legacy(setup: LegacySetup, probe: Probe) -> pb.LegacyCiphertext:
    return pb.LegacyCiphertext(key_name=setup.legacy_key, raw=probe.data)


def _unary_request(setup: LegacySetup, probe: Probe, target: str) -> pb.ReEncryptRequest:
    return pb.ReEncryptRequest(legacy=_legacy(setup, probe), key_name=target, context=b"attack")


def _targets(setup: LegacySetup) -> list[str]:
    return [setup.legacy_key, setup.other_key]


def _check(answers: list[tuple[bool, int, str]], where: str) -> None:
    """`answers` are (good padding, code, message) per probe: all must be one refusal, alike.

    The refusal is PERMISSION_DENIED (reencrypt is not enough), or INVALID_ARGUMENT when the
    target is the legacy key itself (a legacy key never encrypts, whoever asks): either way it
    must come before any decryption, so good and bad padding answer exactly alike."""
    kinds = Counter((code, message) for _, code, message in answers)
    by_padding = Counter((good, code, message[:100]) for good, code, message in answers)
    distinguishable = len(answers) - kinds.most_common(1)[0][1]
    assert distinguishable == 0, f"{where}: {distinguishable} of {len(answers)} answers differ: {dict(by_padding)}"
    assert all(code in REFUSED for _, code, _ in answers), f"{where}: not refused: {dict(by_padding)}"


@pytest.mark.parametrize("target_is_legacy_key", [True, False], ids=["into-legacy-key", "into-other-key"])
def test_reencrypt_legacy_with_only_reencrypt_is_no_padding_oracle(
    policy_server: Target, callers: Callers, legacy: LegacySetup, target_is_legacy_key: bool
) -> None:
    target = legacy.legacy_key if target_is_legacy_key else legacy.other_key
    with connect(policy_server) as stubs:
        answers = []
        for probe in legacy.probes:
            answer = unary(stubs.crypto.ReEncrypt, _unary_request(legacy, probe, target), callers.rewrapper.metadata)
            answers.append((probe.good_padding, answer.code.value[0], answer.message))
    _check(answers, f"ReEncrypt into {target}")


@pytest.mark.parametrize("target_is_legacy_key", [True, False], ids=["into-legacy-key", "into-other-key"])
def test_reencrypt_batch_legacy_items_are_no_padding_oracle(
    policy_server: Target, callers: Callers, legacy: LegacySetup, target_is_legacy_key: bool
) -> None:
    target = legacy.legacy_key if target_is_legacy_key else legacy.other_key
    request = pb.ReEncryptBatchRequest(
        key_name=target,
        items=[
            pb.ReEncryptBatchItem(reference=str(i), legacy=_legacy(legacy, p), context=b"attack")
            for i, p in enumerate(legacy.probes)
        ],
    )
    with connect(policy_server) as stubs:
        answer = unary(stubs.crypto.ReEncryptBatch, request, callers.rewrapper.metadata)
    if not answer.ok:  # the whole batch refused: one answer for all probes
        assert answer.code.value[0] in REFUSED, answer.brief()
        return
    results = list(answer.response.results)
    assert len(results) == PROBES
    _check(
        [
            (p.good_padding, r.error.code if r.HasField("error") else 0, r.error.message)
            for p, r in zip(legacy.probes, results, strict=True)
        ],
        f"ReEncryptBatch into {target}",
    )


@pytest.mark.parametrize("target_is_legacy_key", [True, False], ids=["into-legacy-key", "into-other-key"])
def test_reencrypt_stream_legacy_items_are_no_padding_oracle(
    policy_server: Target, callers: Callers, legacy: LegacySetup, target_is_legacy_key: bool
) -> None:
    target = legacy.legacy_key if target_is_legacy_key else legacy.other_key
    requests = [
        pb.ReEncryptStreamRequest(reference=str(i), legacy=_legacy(legacy, p), key_name=target, context=b"attack")
        for i, p in enumerate(legacy.probes)
    ]
    with connect(policy_server) as stubs:
        responses, end = stream(stubs.crypto.ReEncryptStream, requests, callers.rewrapper.metadata)
    if not responses and end.code != grpc.StatusCode.OK:  # the whole stream refused
        assert end.code.value[0] in REFUSED, end.brief()
        return
    assert end.ok, f"the stream ended {end.brief()} after {len(responses)} answers"
    by_reference = {r.result.reference: r.result for r in responses}
    assert len(by_reference) == PROBES
    _check(
        [
            (p.good_padding, r.error.code if r.HasField("error") else 0, r.error.message)
            for p, r in ((p, by_reference[str(i)]) for i, p in enumerate(legacy.probes))
        ],
        f"ReEncryptStream into {target}",
    )

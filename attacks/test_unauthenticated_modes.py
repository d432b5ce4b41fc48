"""Finding 2: padding oracle and malleability on cipherd's own unauthenticated modes through ReEncrypt.

A `reencrypt`-only caller tampers with a `cbc`, `ctr`, `cfb`, `ofb` or `ecb` ciphertext and asks for a
rewrap within the same key. Answering by padding (cbc, ecb) is a padding oracle; rewrapping tampered
data (ctr, cfb, ofb: no padding to fail) launders a forgery into a fresh ciphertext. Budget: every
probe (64, good and bad padding, untampered included) PERMISSION_DENIED with one message, so 0
distinguishable answers; `decrypt`+`encrypt` still rewraps (positive control). For the authenticated
modes (gcm, chacha, xgcm, siv) `reencrypt` alone rewraps (positive control) and every tampered
ciphertext gets one and the same failure."""

from __future__ import annotations

import os
from collections import Counter

import grpc
import pytest
from answers import Metadata, unary
from conftest import Callers, fresh
from keyring import Envelope, create_key, encrypt
from servers import Stubs, Target, connect

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import keys_pb2

PROBES = 64
UNAUTHENTICATED_MODES = {
    "cbc": keys_pb2.MODE_CBC,
    "ctr": keys_pb2.MODE_CTR,
    "cfb": keys_pb2.MODE_CFB,
    "ofb": keys_pb2.MODE_OFB,
    "ecb": keys_pb2.MODE_ECB,
}
AUTHENTICATED_MODES = {
    "gcm": keys_pb2.MODE_GCM,
    "chacha": keys_pb2.MODE_CHACHA,
    "xgcm": keys_pb2.MODE_XGCM,
    "siv": keys_pb2.MODE_SIV,
}


def _rewrap(stubs: Stubs, metadata: Metadata, ciphertext: str, key_name: str = "") -> tuple[int, str]:
    answer = unary(stubs.crypto.ReEncrypt, pb.ReEncryptRequest(ciphertext=ciphertext, key_name=key_name), metadata)
    return answer.code.value[0], answer.message


def _cbc_probes(original: str) -> list[tuple[str, bool]]:
    """One block of 15 bytes plus padding 0x01 behind its IV. Changing IV bytes 0–14 changes the
    plaintext but keeps the padding good; changing the last IV byte makes the padding bad."""
    envelope = Envelope.parse(original)
    probes = [(original, True)]
    probes += [(envelope.flipped(i % 15, 1 + i // 15), True) for i in range(PROBES // 2 - 1)]
    probes += [(envelope.flipped(15, d), False) for d in range(1, PROBES // 2 + 1)]
    return probes


def _ecb_probes(stubs: Stubs, metadata: Metadata, key: str, original: str) -> list[tuple[str, bool]]:
    """Two blocks. Pasting another ciphertext's first block keeps the padding good; changing a byte of
    the last block makes it bad (all but surely)."""
    envelope = Envelope.parse(original)
    probes = [(original, True)]
    for _ in range(PROBES // 2 - 1):
        donor = Envelope.parse(encrypt(stubs, metadata, key, os.urandom(20))).payload
        probes.append((envelope.with_payload(donor[:16] + envelope.payload[16:]), True))
    probes += [(envelope.flipped(16 + i % 16, 1 + i // 16), False) for i in range(PROBES // 2)]
    return probes


def _stream_probes(original: str) -> list[tuple[str, bool]]:
    """No padding: every flipped bit decrypts to something, so each probe is a forgery attempt."""
    envelope = Envelope.parse(original)
    return [(original, True)] + [
        (envelope.flipped(i % len(envelope.payload), 1 << (i % 8)), True) for i in range(PROBES - 1)
    ]


@pytest.mark.parametrize("mode", sorted(UNAUTHENTICATED_MODES))
def test_reencrypt_only_caller_gets_no_rewrap_of_unauthenticated_modes(
    policy_server: Target, callers: Callers, mode: str
) -> None:
    key = fresh(f"unauth-{mode}")
    admin = callers.admin.metadata
    with connect(policy_server) as stubs:
        create_key(stubs, admin, key, UNAUTHENTICATED_MODES[mode], allow_unauthenticated=True, allow_ecb=mode == "ecb")
        original = encrypt(stubs, admin, key, b"A" * (20 if mode == "ecb" else 15))
        if mode == "cbc":
            probes = _cbc_probes(original)
        elif mode == "ecb":
            probes = _ecb_probes(stubs, admin, key, original)
        else:
            probes = _stream_probes(original)
        assert len(probes) == PROBES

        # Positive control: decrypt+encrypt on the key still rewraps it, within the key.
        assert _rewrap(stubs, callers.reader_writer.metadata, original) == (0, ""), "decrypt+encrypt must rewrap"

        for same_key in ("", key):
            answers = [(good, *_rewrap(stubs, callers.rewrapper.metadata, probe, same_key)) for probe, good in probes]
            kinds = Counter((code, message) for _, code, message in answers)
            summary = dict(Counter((good, code, message[:80]) for good, code, message in answers))
            distinguishable = PROBES - kinds.most_common(1)[0][1]
            assert distinguishable == 0, f"{mode}, key_name={same_key!r}: {distinguishable} answers differ: {summary}"
            assert set(kinds) and all(code == grpc.StatusCode.PERMISSION_DENIED.value[0] for code, _ in kinds), (
                f"{mode}, key_name={same_key!r}: a reencrypt-only caller must be refused before decryption: {summary}"
            )


@pytest.mark.parametrize("mode", sorted(AUTHENTICATED_MODES))
def test_reencrypt_only_caller_rewraps_authenticated_modes_and_tampering_fails_uniformly(
    policy_server: Target, callers: Callers, mode: str
) -> None:
    key = fresh(f"auth-{mode}")
    with connect(policy_server) as stubs:
        create_key(stubs, callers.admin.metadata, key, AUTHENTICATED_MODES[mode])
        original = encrypt(stubs, callers.admin.metadata, key, b"attack at dawn, 32 bytes long...")
        assert _rewrap(stubs, callers.rewrapper.metadata, original) == (0, ""), "reencrypt alone must rewrap"
        envelope = Envelope.parse(original)
        answers = [
            _rewrap(stubs, callers.rewrapper.metadata, envelope.flipped(i % len(envelope.payload), 1 << (i % 8)))
            for i in range(PROBES)
        ]
    kinds = Counter(answers)
    assert len(kinds) == 1 and (0, "") not in kinds, f"{mode}: tampered ciphertexts answered {dict(kinds)}"

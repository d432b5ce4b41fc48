"""Vault Transit ciphertexts (`vault:vN:`) as an oracle: what tampering with one tells the caller.

Keys imported from Transit's own vectors (proto/testdata/transit_vectors.json, made by a real Transit)
open Transit's ciphertexts natively. A caller with `decrypt` sends, for each of Decrypt, ReEncrypt,
DecryptBatch items, DecryptStream items and ReEncryptStream items: another Transit key's ciphertext, a
nonce cut short, a payload with no room for its tag, the right payload under another version's number,
a version the key does not have, one the key made itself (not imported), the right ciphertext with
swapped or missing associated data; and of derived keys (imported with Transit's KDF): a swapped context,
a derived key's ciphertext sent without context under a plain key, a convergent key's ciphertext under
another derived key. Budget: every one DECRYPTION_FAILED with the one message "decryption failed" (the
untouched ciphertexts decrypt: positive control). A derived key's ciphertext without any context is
INVALID_ARGUMENT, with one message that names the context and nothing of the ciphertext: the same for a
good one and a tampered one. A `reencrypt`-only caller, who could
probe within the key without reading it, is refused (PERMISSION_DENIED) alike for good and tampered
ones: rewrapping data from outside needs `decrypt`."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
from answers import stream, unary
from conftest import Callers, fresh
from servers import Stubs, Target, connect

from cipherd.v1 import crypto_service_pb2 as crypto_pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

VECTORS = Path(__file__).resolve().parents[1] / "proto" / "testdata" / "transit_vectors.json"


@dataclass(frozen=True)
class Case:
    key: str
    ciphertext: str
    plaintext: bytes
    associated: bytes  # the request's context: Transit's associated_data, or a derived key's context

    @property
    def version(self) -> int:
        return int(self.ciphertext.split(":")[1][1:])

    @property
    def payload(self) -> bytes:
        return base64.b64decode(self.ciphertext.split(":")[2])


KDFS = {
    "hkdf_sha256": keys_pb2.TRANSIT_KDF_HKDF_SHA256,
    "hmac-sha256-counter": keys_pb2.TRANSIT_KDF_HMAC_SHA256_COUNTER,
}


def _import(stubs: Stubs, callers: Callers) -> dict[str, list[Case]]:
    """Each vector key imported under a fresh name, version by version (a derived key's with its KDF, then
    rotated so that it has a version that encrypts); its cases under that name."""
    document: Any = json.loads(VECTORS.read_text())
    cases: dict[str, list[Case]] = {}
    for key in document["keys"]:
        name = fresh("transit")
        mode = keys_pb2.MODE_CHACHA if key["type"].startswith("chacha") else keys_pb2.MODE_GCM
        kdf = KDFS[key["kdf"]] if "kdf" in key else keys_pb2.TRANSIT_KDF_UNSPECIFIED
        for version in sorted(key["versions"], key=int):
            request = admin_pb.ImportKeyRequest(
                key_name=name, mode=mode, key_material=base64.b64decode(key["versions"][version]), transit_kdf=kdf
            )
            answer = unary(stubs.admin.ImportKey, request, callers.importer.metadata)
            assert answer.ok and answer.response.key.current_version == int(version), answer.brief()
        if "kdf" in key:
            rotate = unary(stubs.admin.RotateKey, admin_pb.RotateKeyRequest(key_name=name), callers.admin.metadata)
            assert rotate.ok, rotate.brief()
        cases[name] = [
            Case(
                name,
                c["ciphertext"],
                base64.b64decode(c["plaintext"]),
                base64.b64decode(c["context"] or c["associated_data"]),
            )
            for c in key["cases"]
        ]
    return cases


def _derived(cases: dict[str, list[Case]], index: int) -> str:
    """The fresh name of the vector file's `index`-th derived key (0: d-aes256, 3: c-aes256)."""
    document: Any = json.loads(VECTORS.read_text())
    derived = [n for n, k in zip(cases, document["keys"], strict=True) if "kdf" in k]
    return derived[index]


def _tampered(cases: dict[str, list[Case]], rotated: str) -> list[tuple[str, Case]]:
    """Each way to get a Transit ciphertext wrong, as the ciphertext, key and context a caller sends."""
    names = list(cases)
    target = next(c for c in cases[names[0]] if c.associated and c.version == 2)
    other = next(c for c in cases[names[1]] if c.associated)
    swapped = next(c for c in cases[names[0]] if c.associated and c.associated != target.associated)

    def text(version: int, payload: bytes) -> str:
        return f"vault:v{version}:{base64.b64encode(payload).decode()}"

    made_here = next(c for c in cases[rotated] if c.version == 1)
    current_here = len({c.version for c in cases[rotated]}) + 1
    derived = cases[_derived(cases, 0)][0]
    other_context = next(c.associated for c in cases[derived.key] if c.associated != derived.associated)
    convergent = cases[_derived(cases, 3)][0]
    return [
        ("a swapped context", Case(derived.key, derived.ciphertext, b"", other_context)),
        ("a derived ciphertext, no context, under a plain key", Case(target.key, derived.ciphertext, b"", b"")),
        (
            "a convergent ciphertext under another key",
            Case(derived.key, convergent.ciphertext, b"", convergent.associated),
        ),
        ("another key's ciphertext", Case(target.key, other.ciphertext, b"", other.associated)),
        ("a nonce cut short", Case(target.key, text(2, target.payload[:11]), b"", target.associated)),
        ("no room for the tag", Case(target.key, text(2, target.payload[:27]), b"", target.associated)),
        ("another version's number", Case(target.key, text(3, target.payload), b"", target.associated)),
        ("a version the key lacks", Case(target.key, text(99, target.payload), b"", target.associated)),
        ("a version cipherd made", Case(rotated, text(current_here, made_here.payload), b"", made_here.associated)),
        ("swapped associated data", Case(target.key, target.ciphertext, b"", swapped.associated)),
        ("no associated data", Case(target.key, target.ciphertext, b"", b"")),
    ]


def _answers(stubs: Stubs, metadata: Any, case: Case) -> list[tuple[str, grpc.StatusCode, str]]:
    """The case through every call shape: (shape, code, message) of each."""
    out: list[tuple[str, grpc.StatusCode, str]] = []
    a = unary(
        stubs.crypto.Decrypt,
        crypto_pb.DecryptRequest(ciphertext=case.ciphertext, context=case.associated, expected_key=case.key),
        metadata,
    )
    out.append(("Decrypt", a.code, a.message))
    a = unary(
        stubs.crypto.ReEncrypt,
        crypto_pb.ReEncryptRequest(ciphertext=case.ciphertext, context=case.associated, expected_key=case.key),
        metadata,
    )
    out.append(("ReEncrypt", a.code, a.message))
    item = crypto_pb.DecryptBatchItem(reference="1", ciphertext=case.ciphertext, context=case.associated)
    a = unary(stubs.crypto.DecryptBatch, crypto_pb.DecryptBatchRequest(items=[item], expected_key=case.key), metadata)
    if a.ok and a.response.results[0].HasField("error"):
        error = a.response.results[0].error
        out.append(("DecryptBatch item", _code(error.code), error.message))
    else:
        out.append(("DecryptBatch item", a.code, a.message))
    responses, a = stream(
        stubs.crypto.DecryptStream,
        [
            crypto_pb.DecryptStreamRequest(
                reference="1", ciphertext=case.ciphertext, context=case.associated, expected_key=case.key
            )
        ],
        metadata,
    )
    out.append(("DecryptStream item", *_streamed(responses, a)))
    responses, a = stream(
        stubs.crypto.ReEncryptStream,
        [
            crypto_pb.ReEncryptStreamRequest(
                reference="1", ciphertext=case.ciphertext, context=case.associated, expected_key=case.key
            )
        ],
        metadata,
    )
    out.append(("ReEncryptStream item", *_streamed(responses, a)))
    return out


def _code(number: int) -> grpc.StatusCode:
    return next(c for c in grpc.StatusCode if c.value[0] == number)


def _streamed(responses: list[Any], call: Any) -> tuple[grpc.StatusCode, str]:
    if not call.ok or not responses:
        return call.code, call.message
    result = responses[0].result
    if result.HasField("error"):
        return _code(result.error.code), result.error.message
    return grpc.StatusCode.OK, ""


def test_tampered_transit_ciphertexts_fail_one_way(policy_server: Target, callers: Callers) -> None:
    with connect(policy_server) as stubs:
        cases = _import(stubs, callers)
        rotated = list(cases)[2]
        rotate = unary(stubs.admin.RotateKey, admin_pb.RotateKeyRequest(key_name=rotated), callers.admin.metadata)
        assert rotate.ok, rotate.brief()
        for name, good in ((n, c) for n, cs in cases.items() for c in cs[:3]):
            for shape, code, message in _answers(stubs, callers.reader_writer.metadata, good):
                assert code == grpc.StatusCode.OK, f"positive control, {name} {shape}: {code.name} {message!r}"
        failures = {
            (what, shape, code, message)
            for what, case in _tampered(cases, rotated)
            for shape, code, message in _answers(stubs, callers.reader_writer.metadata, case)
        }
    distinct = {(code, message) for _, _, code, message in failures}
    assert distinct == {(grpc.StatusCode.INVALID_ARGUMENT, "decryption failed")}, sorted(failures, key=str)[:8]


def test_a_derived_ciphertext_without_context_is_refused_alike_good_or_tampered(
    policy_server: Target, callers: Callers
) -> None:
    with connect(policy_server) as stubs:
        cases = _import(stubs, callers)
        good = cases[_derived(cases, 0)][0]
        tampered = bytearray(good.payload)
        tampered[-1] ^= 1
        sent = [
            Case(good.key, good.ciphertext, b"", b""),
            Case(good.key, f"vault:v{good.version}:{base64.b64encode(bytes(tampered)).decode()}", b"", b""),
            Case(good.key, f"vault:v{good.version}:{base64.b64encode(good.payload[:20]).decode()}", b"", b""),
        ]
        answers = {
            (shape, code, message.replace(good.key, "KEY"))
            for case in sent
            for shape, code, message in _answers(stubs, callers.reader_writer.metadata, case)
        }
    assert {code for _, code, _ in answers} == {grpc.StatusCode.INVALID_ARGUMENT}, answers
    messages = {message for _, _, message in answers}
    assert len(messages) == 1 and "context" in next(iter(messages)), messages


def test_a_reencrypt_only_caller_learns_nothing(policy_server: Target, callers: Callers) -> None:
    with connect(policy_server) as stubs:
        cases = _import(stubs, callers)
        rotated = list(cases)[2]
        good = [c for cs in cases.values() for c in cs[:2]]
        answers = {
            (shape, code, message.replace(case.key, "KEY"))
            for case in good + [c for _, c in _tampered(cases, rotated)]
            for shape, code, message in _answers(stubs, callers.rewrapper.metadata, case)
            if shape.startswith("ReEncrypt")
        }
    assert {code for _, code, _ in answers} == {grpc.StatusCode.PERMISSION_DENIED}, answers
    assert len({(shape, message) for shape, _, message in answers}) <= 2, answers

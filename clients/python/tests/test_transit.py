"""Vault Transit's own ciphertexts (proto/testdata/transit_vectors.json, made by a real Transit with the keys
that made them) through the real server: the keys imported version by version, every `vault:vN:` ciphertext
decrypted and rewrapped with expected_key naming its key, by the unary, batch and stream calls."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

import cipherd
from cipherd import CiphertextItem, Mode
from server import RunningServer

VECTORS = Path(__file__).resolve().parents[3] / "proto" / "testdata" / "transit_vectors.json"


@dataclass(frozen=True)
class TransitCase:
    key: str  # the fresh key the Transit key was imported into
    version: int
    current: int  # the key's current version once imported
    ciphertext: str
    plaintext: bytes
    context: bytes  # Transit's associated_data, or a derived key's context


@pytest.fixture
def cases(client: cipherd.Client, key_name: str) -> list[TransitCase]:
    """Every vector key imported into a fresh key, its versions in order so that the numbers are Transit's (a
    derived key's with its KDF, then rotated for a version that encrypts, as cipherctl import vault-transit does)."""
    found: list[TransitCase] = []
    for key in json.loads(VECTORS.read_text())["keys"]:
        name = f"{key_name}-{key['name']}"
        mode = Mode.CHACHA if key["type"].startswith("chacha") else Mode.GCM
        versions = key["versions"]
        for number in range(1, len(versions) + 1):
            imported = client.import_key(
                name, base64.b64decode(versions[str(number)]), mode=mode, transit_kdf=key.get("kdf")
            )
            assert imported.current_version == number, f"{key['name']} keeps Transit's version numbers"
        current = len(versions)
        if key.get("kdf"):
            current = client.rotate_key(name).current_version
        for case in key["cases"]:
            version = int(case["ciphertext"].split(":")[1].removeprefix("v"))
            found.append(
                TransitCase(
                    name,
                    version,
                    current,
                    case["ciphertext"],
                    base64.b64decode(case["plaintext"]),
                    base64.b64decode(case["context"] or case["associated_data"]),
                )
            )
    assert len(found) >= 100
    return found


def _check_rewrap(client: cipherd.Client, case: TransitCase, rewrapped: cipherd.Rewrapped) -> None:
    """A cipherd ciphertext under the key's current version, from the case's, that decrypts to its plaintext."""
    assert rewrapped.ciphertext.startswith(f"<{case.key}/v{case.current}:"), case.ciphertext
    assert (rewrapped.key_version, rewrapped.source_key_version) == (case.current, case.version)
    assert client.decrypt(rewrapped.ciphertext, context=case.context) == case.plaintext


def test_unary_calls_decrypt_and_rewrap_every_transit_ciphertext(
    client: cipherd.Client, cases: list[TransitCase]
) -> None:
    for case in cases:
        assert client.decrypt(case.ciphertext, context=case.context, expected_key=case.key) == case.plaintext
        _check_rewrap(client, case, client.re_encrypt(case.ciphertext, context=case.context, expected_key=case.key))


def _items(cases: list[TransitCase]) -> list[CiphertextItem]:
    return [
        CiphertextItem(c.ciphertext, context=c.context, reference=str(i), expected_key=c.key)
        for i, c in enumerate(cases)
    ]


def test_batches_decrypt_and_rewrap_every_transit_ciphertext(client: cipherd.Client, cases: list[TransitCase]) -> None:
    decrypted = client.decrypt_batch(_items(cases))
    rewrapped = client.re_encrypt_batch(_items(cases))

    assert [r.reference for r in decrypted] == [r.reference for r in rewrapped] == [str(i) for i in range(len(cases))]
    for case, plain, rewrap in zip(cases, decrypted, rewrapped, strict=True):
        assert plain.error is None and rewrap.error is None, case.ciphertext
        assert (plain.value, plain.key_version) == (case.plaintext, case.version)
        assert rewrap.value is not None
        _check_rewrap(client, case, rewrap.value)


def test_streams_decrypt_and_rewrap_every_transit_ciphertext_with_the_calls_expected_key(
    client: cipherd.Client, cases: list[TransitCase]
) -> None:
    for key in dict.fromkeys(c.key for c in cases):
        mine = [c for c in cases if c.key == key]
        items = [CiphertextItem(c.ciphertext, context=c.context, reference=str(i)) for i, c in enumerate(mine)]

        decrypted = list(client.decrypt_stream(items, expected_key=key))
        rewrapped = list(client.re_encrypt_stream(items, expected_key=key))

        assert len(decrypted) == len(rewrapped) == len(mine)
        for case, plain, rewrap in zip(mine, decrypted, rewrapped, strict=True):
            assert plain.error is None and rewrap.error is None, case.ciphertext
            assert plain.value == case.plaintext
            assert rewrap.value is not None
            _check_rewrap(client, case, rewrap.value)


async def test_the_asyncio_client_decrypts_and_rewraps_every_transit_ciphertext(
    plain_server: RunningServer, client: cipherd.Client, cases: list[TransitCase]
) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        for case in cases:
            assert await c.decrypt(case.ciphertext, context=case.context, expected_key=case.key) == case.plaintext
        decrypted = await c.decrypt_batch(_items(cases))
        rewrapped = [r async for r in c.re_encrypt_stream(_items(cases))]

    assert [r.value for r in decrypted] == [c.plaintext for c in cases]
    for case, rewrap in zip(cases, rewrapped, strict=True):
        assert rewrap.value is not None, case.ciphertext
        _check_rewrap(client, case, rewrap.value)

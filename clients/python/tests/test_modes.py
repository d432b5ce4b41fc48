"""The xgcm and siv modes through the sync client against the real server."""

from __future__ import annotations

import pytest

import cipherd
from cipherd import Mode, parse_ciphertext


def test_xgcm_round_trip_with_a_fresh_24_byte_nonce_each_time(client: cipherd.Client, key_name: str) -> None:
    created = client.create_key(key_name, mode=Mode.XGCM)
    assert created.versions[0].key_size_bits == 256
    texts = [client.encrypt(key_name, b"twelve bytes", context=b"c") for _ in range(2)]
    envelopes = [parse_ciphertext(t) for t in texts]
    assert all(e.mode is Mode.XGCM and len(e.payload) == 24 + 12 + 16 for e in envelopes)
    assert envelopes[0].payload[:24] != envelopes[1].payload[:24]
    assert [client.decrypt(t, context=b"c") for t in texts] == [b"twelve bytes"] * 2
    with pytest.raises(cipherd.DecryptionFailedError):
        client.decrypt(texts[0], context=b"d")


def test_siv_is_deterministic_per_plaintext_context_and_version(client: cipherd.Client, key_name: str) -> None:
    created = client.create_key(key_name, mode=Mode.SIV)
    assert created.versions[0].key_size_bits == 512
    first = client.encrypt(key_name, b"alice@example.com", context=b"users.email")
    assert client.encrypt(key_name, b"alice@example.com", context=b"users.email") == first
    assert client.encrypt(key_name, b"alice@example.com", context=b"users.name") != first
    assert client.encrypt(key_name, b"bob@example.com", context=b"users.email") != first
    envelope = parse_ciphertext(first)
    assert envelope.mode is Mode.SIV and len(envelope.payload) == 16 + len(b"alice@example.com")
    assert client.decrypt(first, context=b"users.email") == b"alice@example.com"

    client.rotate_key(key_name, mode=Mode.SIV)
    second = client.encrypt(key_name, b"alice@example.com", context=b"users.email")
    assert parse_ciphertext(second).key_version == 2 and second != first
    rewrapped = client.re_encrypt(first, context=b"users.email")
    assert rewrapped.ciphertext == second, "a rewrap under siv is deterministic too"


def test_siv_with_another_context_fails_as_decryption_failed(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode=Mode.SIV)
    ciphertext = client.encrypt(key_name, b"x", context=b"a")
    with pytest.raises(cipherd.DecryptionFailedError):
        client.decrypt(ciphertext, context=b"b")


def test_inspect_names_the_new_modes(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode=Mode.XGCM)
    client.rotate_key(key_name, mode=Mode.SIV)
    assert client.inspect(client.encrypt(key_name, b"x")).mode is Mode.SIV

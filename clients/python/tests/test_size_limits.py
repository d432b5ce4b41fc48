"""The largest plaintext the server encrypts comes back through every shape, and one byte more is refused.

The limit is proto/README.md's "Size limits" at the server's default --max-message-bytes (4 MiB):
3 * floor((M - 352 - context - reference) / 4) - 40 bytes.
"""

from __future__ import annotations

import pytest

import cipherd
from cipherd import CiphertextItem, EncryptItem, Mode

MAX_MESSAGE = 4 * 1024 * 1024
CONTEXT = b"c" * 65536
REFERENCE = "r" * 100


def largest(extra: int) -> int:
    return 3 * ((MAX_MESSAGE - 352 - extra) // 4) - 40


def test_the_documented_limit() -> None:
    assert largest(0) == 3_145_424
    assert largest(len(CONTEXT)) == 3_096_272


def test_unary_at_the_limit_round_trips_and_one_byte_more_is_refused(client: cipherd.Client, key_name: str) -> None:
    name = key_name + "x" * (64 - len(key_name))  # the longest name, in the mode that expands most
    client.create_key(name, mode=Mode.XGCM)
    plaintext = b"p" * largest(len(CONTEXT))
    ciphertext = client.encrypt(name, plaintext, context=CONTEXT)
    assert client.decrypt(ciphertext, context=CONTEXT) == plaintext
    rewrapped = client.re_encrypt(ciphertext, context=CONTEXT, key_name=name)
    assert client.decrypt(rewrapped.ciphertext, context=CONTEXT) == plaintext

    with pytest.raises(cipherd.InvalidArgumentError) as raised:
        client.encrypt(name, plaintext + b"p", context=CONTEXT)
    assert raised.value.reason == "INVALID_ARGUMENT"
    assert raised.value.details.startswith(
        f"plaintext is {len(plaintext) + 1} bytes; the largest this server "
        f"encrypts with this context (65536 bytes) is {len(plaintext)} bytes"
    )
    assert "GenerateDataKey" in raised.value.details


def test_stream_and_batch_items_at_the_limit_come_back(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode=Mode.XGCM)
    size = largest(len(CONTEXT) + len(REFERENCE))
    items = [
        EncryptItem(b"s" * size, context=CONTEXT, reference=REFERENCE),
        EncryptItem(b"s" * (size + 1), context=CONTEXT, reference=REFERENCE + "+1"),
    ]
    fits, over = list(client.encrypt_stream(key_name, items))
    assert over.error is not None and over.error.reason == "INVALID_ARGUMENT"
    assert f"plaintext is {size + 1} bytes" in str(over.error)
    ciphertext = fits.unwrap()

    back = CiphertextItem(ciphertext, context=CONTEXT, reference=REFERENCE)
    [decrypted] = client.decrypt_batch([back])
    assert decrypted.unwrap() == b"s" * size
    [streamed] = list(client.decrypt_stream([back]))
    assert streamed.unwrap() == b"s" * size
    [rewrapped] = list(client.re_encrypt_stream([back]))
    assert rewrapped.ok
    [batch_rewrapped] = client.re_encrypt_batch([back])
    assert batch_rewrapped.ok

    [batch_fits] = client.encrypt_batch(key_name, [EncryptItem(b"b" * size, context=CONTEXT, reference=REFERENCE)])
    assert client.decrypt(batch_fits.unwrap(), context=CONTEXT) == b"b" * size

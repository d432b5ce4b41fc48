"""Values that hold secrets or ciphertexts keep them out of repr, so logging a result leaks nothing."""

from __future__ import annotations

import cipherd
from cipherd import CiphertextItem, EncryptItem, ItemResult, TlsConfig


def test_reprs_leave_out_plaintexts_ciphertexts_and_keys() -> None:
    values: list[object] = [
        ItemResult("r", b"plain-secret", None, 1),
        EncryptItem(b"plain-secret"),
        CiphertextItem("<demo/v1:gcm>cipher-secret"),
        cipherd.Rewrapped("<demo/v2:gcm>cipher-secret", 2, 1),
        TlsConfig(key=b"key-secret"),
        cipherd.parse_ciphertext("<payments/v1:gcm>gw5GY34Xkpqq9in8UYlMyOsKre8Gnfy4mPT95w=="),
    ]
    for value in values:
        text = repr(value)
        assert "secret" not in text and "gw5GY34" not in text, text


def test_unwrap_raises_the_item_error() -> None:
    error = cipherd.error_for(5, "key 'x' not found")
    result: ItemResult[bytes] = ItemResult("r", None, error)
    assert not result.ok
    try:
        result.unwrap()
    except cipherd.NotFoundError as raised:
        assert raised is error
    else:
        raise AssertionError("unwrap returned")

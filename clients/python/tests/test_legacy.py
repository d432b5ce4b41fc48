"""Legacy ciphertexts against the real server: keys imported by passphrase or bytes, data made by MySQL or
by Python's cryptography (an implementation independent of the server's), rewrapped by every ReEncrypt
form into a cipherd key, and decrypted back."""

from __future__ import annotations

import base64
import os
from collections.abc import AsyncIterator, Iterator

import pytest
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from mysql_sample_export import MYSQL_HELLO, mysql_aes_encrypt  # examples/: MySQL's AES_ENCRYPT, made here

import cipherd
from cipherd import CiphertextItem, LegacyCipher, LegacyCiphertext, LegacyIv, Mode
from server import RunningServer


def _aes_cbc(key: bytes, iv: bytes, plaintext: bytes) -> bytes:
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(padder.update(plaintext) + padder.finalize()) + encryptor.finalize()


@pytest.fixture
def target(client: cipherd.Client, key_name: str) -> str:
    """A gcm key to rewrap into."""
    client.create_key(key_name + "-gcm")
    return key_name + "-gcm"


def test_mysql_known_answer_imported_by_passphrase_rewraps_to_hello(
    client: cipherd.Client, key_name: str, target: str
) -> None:
    key = client.import_key(key_name, legacy_cipher=LegacyCipher.MYSQL_AES_ECB, passphrase="1234567890")
    version = key.versions[-1]
    assert (version.mode, version.legacy_cipher, version.key_size_bits) == (None, LegacyCipher.MYSQL_AES_ECB, 128)
    raw = bytes.fromhex(MYSQL_HELLO)
    for legacy in (
        LegacyCiphertext(key_name, hex=MYSQL_HELLO),
        LegacyCiphertext(key_name, hex=MYSQL_HELLO.lower()),
        LegacyCiphertext(key_name, raw=raw),
        LegacyCiphertext(key_name, base64=base64.b64encode(raw).decode()),
    ):
        rewrapped = client.re_encrypt(legacy, key_name=target, context=b"users.name/1")
        assert cipherd.parse_ciphertext(rewrapped.ciphertext).key_name == target
        assert rewrapped.source_key_version == version.version
        assert client.decrypt(rewrapped.ciphertext, context=b"users.name/1") == b"HELLO"


def test_a_column_rewraps_in_one_stream_with_a_broken_row_failing_alone(
    client: cipherd.Client, key_name: str, target: str
) -> None:
    client.import_key(key_name, legacy_cipher="mysql_aes_ecb", passphrase=b"a key string longer than 16 bytes")
    values = {str(i): f"row {i}: {'x' * (i % 40)}".encode() for i in range(1, 601)}
    column = {
        row_id: mysql_aes_encrypt(v, b"a key string longer than 16 bytes").hex().upper() for row_id, v in values.items()
    }
    column["300"] = column["300"][:-2]  # a row that lost a byte: not whole AES blocks

    def rows() -> Iterator[CiphertextItem]:
        for row_id, hex_value in column.items():
            yield CiphertextItem(LegacyCiphertext(key_name, hex=hex_value), context=row_id.encode(), reference=row_id)

    results = list(client.re_encrypt_stream(rows(), key_name=target))
    assert [r.reference for r in results] == list(column)
    failed = [r for r in results if not r.ok]
    assert [r.reference for r in failed] == ["300"]
    assert isinstance(failed[0].error, cipherd.DecryptionFailedError)
    assert all(cipherd.parse_ciphertext(r.unwrap().ciphertext).mode is Mode.GCM for r in results if r.ok)
    decrypted = client.decrypt_stream(
        CiphertextItem(r.unwrap().ciphertext, context=r.reference.encode(), reference=r.reference)
        for r in results
        if r.ok
    )
    assert {r.reference: r.unwrap() for r in decrypted} == {k: v for k, v in values.items() if k != "300"}


def test_batch_rewraps_legacy_and_cipherd_items_together(client: cipherd.Client, key_name: str, target: str) -> None:
    key, iv = os.urandom(32), os.urandom(16)
    client.import_key(key_name, key, legacy_cipher=LegacyCipher.AES_CBC, legacy_iv=LegacyIv.FIXED, legacy_fixed_iv=iv)
    ours = client.encrypt(target, b"already cipherd")
    results = client.re_encrypt_batch(
        [
            CiphertextItem(LegacyCiphertext(key_name, raw=_aes_cbc(key, iv, b"fixed iv")), reference="legacy"),
            CiphertextItem(ours, reference="cipherd"),
            CiphertextItem(LegacyCiphertext(key_name, raw=_aes_cbc(os.urandom(32), iv, b"other key")), reference="bad"),
        ],
        key_name=target,
    )
    assert [r.reference for r in results] == ["legacy", "cipherd", "bad"]
    assert client.decrypt(results[0].unwrap().ciphertext) == b"fixed iv"
    assert client.decrypt(results[1].unwrap().ciphertext) == b"already cipherd"
    assert isinstance(results[2].error, cipherd.DecryptionFailedError)


def test_a_legacy_key_never_encrypts_and_legacy_needs_a_target(client: cipherd.Client, key_name: str) -> None:
    client.import_key(key_name, legacy_cipher=LegacyCipher.MYSQL_AES_ECB, passphrase="1234567890")
    with pytest.raises(cipherd.FailedPreconditionError):
        client.encrypt(key_name, b"x")
    with pytest.raises(cipherd.InvalidArgumentError):
        client.re_encrypt(LegacyCiphertext(key_name, hex=MYSQL_HELLO))
    with pytest.raises(cipherd.InvalidArgumentError):
        client.rotate_key(key_name)


def test_bad_hex_fails_without_quoting_it(client: cipherd.Client, key_name: str, target: str) -> None:
    client.import_key(key_name, legacy_cipher=LegacyCipher.MYSQL_AES_ECB, passphrase="1234567890")
    with pytest.raises(cipherd.InvalidArgumentError) as raised:
        client.re_encrypt(LegacyCiphertext(key_name, hex="ZZSECRETZZ"), key_name=target)
    assert "legacy.hex" in raised.value.details and "SECRET" not in raised.value.details


async def test_async_stream_rewraps_legacy_items_with_their_own_ivs(plain_server: RunningServer, key_name: str) -> None:
    key = os.urandom(16)
    async with cipherd.AsyncClient(plain_server.target) as c:
        imported = await c.import_key(key_name, key, legacy_cipher=LegacyCipher.AES_CBC, legacy_iv=LegacyIv.SEPARATE)
        assert imported.versions[-1].legacy_iv is LegacyIv.SEPARATE
        await c.create_key(key_name + "-new", mode=Mode.XGCM)
        ivs = [os.urandom(16) for _ in range(50)]

        async def rows() -> AsyncIterator[CiphertextItem]:
            for i, iv in enumerate(ivs):
                data = base64.b64encode(_aes_cbc(key, iv, f"value {i}".encode())).decode()
                yield CiphertextItem(LegacyCiphertext(key_name, base64=data, iv=iv), reference=str(i))

        results = [r async for r in c.re_encrypt_stream(rows(), key_name=key_name + "-new", resume_after="9")]
        assert [r.reference for r in results] == [str(i) for i in range(10, 50)]
        assert all(r.unwrap().source_key_version == 1 for r in results)
        assert await c.decrypt(results[0].unwrap().ciphertext) == b"value 10"

"""expected_key against the real server, sync and asyncio: a value planted under another key is refused with
UnexpectedKeyError before it is decrypted, in every call that decrypts or rewraps."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from mysql_sample_export import MYSQL_HELLO  # examples/: MySQL's AES_ENCRYPT, made here

import cipherd
from cipherd import CiphertextItem, LegacyCipher, LegacyCiphertext
from server import RunningServer

COLUMN = b"users.email/42"  # the column's context, which any writer of the column knows


@pytest.fixture
def keys(client: cipherd.Client, key_name: str) -> tuple[str, str, str]:
    """The column's key, another key of the same family, and the key a writer plants values with."""
    email, phone, attacker = f"{key_name}-email", f"{key_name}-phone", f"{key_name}-attacker"
    for name in (email, phone, attacker):
        client.create_key(name)
    return email, phone, attacker


def test_a_planted_value_is_refused_by_the_expected_key_and_decrypts_without_it(
    client: cipherd.Client, keys: tuple[str, str, str], key_name: str
) -> None:
    email, _, attacker = keys
    planted = client.encrypt(attacker, b"attacker@evil.example", context=COLUMN)
    real = client.encrypt(email, b"alice@example.com", context=COLUMN)

    with pytest.raises(cipherd.UnexpectedKeyError) as raised:
        client.decrypt(planted, context=COLUMN, expected_key=email)

    assert isinstance(raised.value, cipherd.InvalidArgumentError)
    assert raised.value.reason == "UNEXPECTED_KEY"
    assert dict(raised.value.metadata) == {"key": attacker, "expected_key": email}
    assert planted.partition(">")[2] not in str(raised.value)
    # Why the option matters: without it, the planted value decrypts and would be trusted.
    assert client.decrypt(planted, context=COLUMN) == b"attacker@evil.example"
    assert client.decrypt(real, context=COLUMN, expected_key=email) == b"alice@example.com"
    assert client.decrypt(real, context=COLUMN, expected_key=f"{key_name}-*") == b"alice@example.com"
    with pytest.raises(cipherd.InvalidArgumentError) as invalid:
        client.decrypt(real, context=COLUMN, expected_key="*")
    assert not isinstance(invalid.value, cipherd.UnexpectedKeyError)
    assert invalid.value.details.startswith("expected_key must be a key name")


def test_re_encrypt_checks_the_ciphertexts_key_or_the_legacy_key(
    client: cipherd.Client, keys: tuple[str, str, str], key_name: str
) -> None:
    email, _, attacker = keys
    planted = client.encrypt(attacker, b"x", context=COLUMN)
    with pytest.raises(cipherd.UnexpectedKeyError):
        client.re_encrypt(planted, context=COLUMN, key_name=email, expected_key=email)
    legacy_key = f"{key_name}-mysql"
    client.import_key(legacy_key, legacy_cipher=LegacyCipher.MYSQL_AES_ECB, passphrase="1234567890")
    legacy = LegacyCiphertext(legacy_key, hex=MYSQL_HELLO)
    with pytest.raises(cipherd.UnexpectedKeyError):
        client.re_encrypt(legacy, key_name=email, expected_key=email)
    assert client.re_encrypt(legacy, key_name=email, expected_key=legacy_key).ciphertext.startswith(f"<{email}/")


def _items(client: cipherd.Client, keys: tuple[str, str, str]) -> list[CiphertextItem]:
    email, phone, attacker = keys
    return [
        CiphertextItem(client.encrypt(email, b"v", context=COLUMN), COLUMN, "email"),
        CiphertextItem(client.encrypt(attacker, b"v", context=COLUMN), COLUMN, "planted"),
        CiphertextItem(client.encrypt(phone, b"v", context=COLUMN), COLUMN, "phone-own", expected_key=phone),
        CiphertextItem(client.encrypt(phone, b"v", context=COLUMN), COLUMN, "phone"),
    ]


PASSING = {"email", "phone-own"}  # the others are under keys the call does not expect


def _check(results: Sequence[cipherd.ItemResult[Any]], items: list[CiphertextItem]) -> None:
    assert [r.reference for r in results] == [i.reference for i in items]
    for r in results:
        if r.reference in PASSING:
            assert r.error is None, r
        else:
            assert isinstance(r.error, cipherd.UnexpectedKeyError), r


def test_batches_and_streams_take_a_call_wide_expected_key_and_an_items_own_wins(
    client: cipherd.Client, keys: tuple[str, str, str]
) -> None:
    items = _items(client, keys)
    email = keys[0]

    _check(list(client.decrypt_batch(items, expected_key=email)), items)
    _check(list(client.re_encrypt_batch(items, expected_key=email)), items)
    _check(list(client.decrypt_stream(items, expected_key=email)), items)
    _check(list(client.re_encrypt_stream(items, expected_key=email)), items)
    assert all(r.error is None for r in client.decrypt_batch(items))


async def test_the_async_client_takes_it_in_every_call(
    plain_server: RunningServer, client: cipherd.Client, keys: tuple[str, str, str]
) -> None:
    items = _items(client, keys)
    email, _, attacker = keys
    planted = client.encrypt(attacker, b"planted", context=COLUMN)
    real = client.encrypt(email, b"real", context=COLUMN)
    async with cipherd.AsyncClient(plain_server.target) as c:
        with pytest.raises(cipherd.UnexpectedKeyError):
            await c.decrypt(planted, context=COLUMN, expected_key=email)
        with pytest.raises(cipherd.UnexpectedKeyError):
            await c.re_encrypt(planted, context=COLUMN, expected_key=email)
        assert await c.decrypt(real, context=COLUMN, expected_key=email) == b"real"
        assert (await c.re_encrypt(real, context=COLUMN, expected_key=email)).ciphertext.startswith(f"<{email}/")
        _check(list(await c.decrypt_batch(items, expected_key=email)), items)
        _check(list(await c.re_encrypt_batch(items, expected_key=email)), items)
        _check([r async for r in c.decrypt_stream(items, expected_key=email)], items)
        _check([r async for r in c.re_encrypt_stream(items, expected_key=email)], items)

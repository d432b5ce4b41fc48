"""CryptoService through the sync client against the real server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

import cipherd
from cipherd import CiphertextItem, EncryptItem, parse_ciphertext


def test_encrypt_decrypt_round_trip_with_context(client: cipherd.Client) -> None:
    ciphertext = client.encrypt("demo", b"card 4111", context=b"order-7")
    envelope = parse_ciphertext(ciphertext)
    assert (envelope.key_name, envelope.key_version, envelope.mode) == ("demo", 1, cipherd.Mode.GCM)
    assert client.decrypt(ciphertext, context=b"order-7") == b"card 4111"


def test_decrypt_with_another_context_fails_without_saying_why(client: cipherd.Client) -> None:
    ciphertext = client.encrypt("demo", b"secret", context=b"a")
    with pytest.raises(cipherd.DecryptionFailedError) as raised:
        client.decrypt(ciphertext, context=b"b")
    assert raised.value.reason == "DECRYPTION_FAILED"
    assert raised.value.details == "decryption failed"
    assert ciphertext.partition(">")[2] not in str(raised.value)


def test_malformed_ciphertext_is_invalid_ciphertext_not_decryption_failure(client: cipherd.Client) -> None:
    with pytest.raises(cipherd.InvalidCiphertextError) as raised:
        client.decrypt("<demo/v01:gcm>AAAA")
    assert not isinstance(raised.value, cipherd.DecryptionFailedError)
    assert raised.value.reason == "INVALID_CIPHERTEXT"
    assert "version" in raised.value.details


def test_encrypt_with_unknown_key_is_not_found(client: cipherd.Client, key_name: str) -> None:
    with pytest.raises(cipherd.NotFoundError) as raised:
        client.encrypt(key_name, b"x")
    assert raised.value.reason == "KEY_NOT_FOUND"


def test_re_encrypt_moves_to_the_current_version(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    old = client.encrypt(key_name, b"payload", context=b"c")
    client.rotate_key(key_name)
    rewrapped = client.re_encrypt(old, context=b"c")
    assert (rewrapped.source_key_version, rewrapped.key_version) == (1, 2)
    assert parse_ciphertext(rewrapped.ciphertext).key_version == 2
    assert client.decrypt(rewrapped.ciphertext, context=b"c") == b"payload"


def test_inspect_matches_the_local_parse_and_sees_rotation(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode="chacha")
    ciphertext = client.encrypt(key_name, b"x")
    client.rotate_key(key_name)
    seen = client.inspect(ciphertext)
    local = parse_ciphertext(ciphertext)
    assert (seen.key_name, seen.key_version, seen.mode) == (local.key_name, local.key_version, local.mode)
    assert seen.current_version == 2 and seen.behind_current


def test_batches_keep_every_item_in_order_with_its_own_error(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    encrypted = client.encrypt_batch(
        key_name, [EncryptItem(b"one", reference="1"), EncryptItem(b"two", context=b"ctx", reference="2")]
    )
    assert [r.reference for r in encrypted] == ["1", "2"] and all(r.ok for r in encrypted)
    good, bound = (r.unwrap() for r in encrypted)
    decrypted = client.decrypt_batch(
        [
            CiphertextItem(good, reference="good"),
            CiphertextItem(bound, context=b"wrong", reference="tampered"),
            CiphertextItem("<demo/v1:gcm>not base64!", reference="malformed"),
            CiphertextItem(good.replace(key_name, "no-such-key", 1), reference="missing"),
        ]
    )
    assert [r.reference for r in decrypted] == ["good", "tampered", "malformed", "missing"]
    assert decrypted[0].unwrap() == b"one" and decrypted[0].key_version == 1
    assert isinstance(decrypted[1].error, cipherd.DecryptionFailedError)
    assert isinstance(decrypted[2].error, cipherd.InvalidCiphertextError)
    assert isinstance(decrypted[3].error, cipherd.NotFoundError)
    assert [r.error.reason for r in decrypted[1:] if r.error] == [
        "DECRYPTION_FAILED",
        "INVALID_CIPHERTEXT",
        "KEY_NOT_FOUND",
    ]
    with pytest.raises(cipherd.NotFoundError):
        decrypted[3].unwrap()


def test_re_encrypt_batch_into_another_key(client: cipherd.Client, key_name: str) -> None:
    target = key_name + "-new"
    client.create_key(key_name)
    client.create_key(target)
    source = client.encrypt(key_name, b"move me")
    results = client.re_encrypt_batch([CiphertextItem(source, reference="r"), "garbage"], key_name=target)
    moved = results[0].unwrap()
    assert parse_ciphertext(moved.ciphertext).key_name == target and moved.source_key_version == 1
    assert isinstance(results[1].error, cipherd.InvalidArgumentError)
    assert client.decrypt(moved.ciphertext) == b"move me"


def test_stream_answers_every_item_in_order(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    texts = [client.encrypt(key_name, str(i).encode()) for i in range(40)]
    client.rotate_key(key_name)
    items = (
        CiphertextItem(t, reference=str(i)) if i != 17 else CiphertextItem("bad", reference="17")
        for i, t in enumerate(texts)
    )
    results = list(client.re_encrypt_stream(items))
    assert [r.reference for r in results] == [str(i) for i in range(40)]
    assert isinstance(results[17].error, cipherd.InvalidArgumentError)
    rest = [r for i, r in enumerate(results) if i != 17]
    assert all(r.unwrap().key_version == 2 for r in rest)
    assert client.decrypt(results[3].unwrap().ciphertext) == b"3"


def test_leaving_a_stream_early_cancels_it(client: cipherd.Client) -> None:
    ciphertext = client.encrypt("demo", b"x")
    consumed = 0
    stop = threading.Event()

    def endless() -> Iterator[str]:
        nonlocal consumed
        while not stop.is_set():
            consumed += 1
            yield ciphertext

    stream = client.re_encrypt_stream(endless())
    for n, result in enumerate(stream):
        assert result.ok
        if n == 4:
            break
    stream.close()  # what leaving a `for` over a generator does when it is collected; here at once
    time.sleep(0.5)
    after_close = consumed
    time.sleep(0.5)
    stop.set()
    assert consumed == after_close, "the request iterator is still read after the stream was left"
    assert client.decrypt(client.encrypt("demo", b"still fine")) == b"still fine"


def test_stream_past_its_deadline_is_deadline_exceeded(client: cipherd.Client) -> None:
    ciphertext = client.encrypt("demo", b"x")

    def slow() -> Iterator[str]:
        yield ciphertext
        time.sleep(3)
        yield ciphertext

    started = time.monotonic()
    with pytest.raises(cipherd.DeadlineExceededError):
        list(client.re_encrypt_stream(slow(), timeout=0.5))
    assert time.monotonic() - started < 3


def test_unary_deadline_is_deadline_exceeded(client: cipherd.Client) -> None:
    with pytest.raises(cipherd.DeadlineExceededError):
        client.encrypt("demo", b"x" * 1_000_000, timeout=0.0001)


def test_nobody_listening_is_unavailable() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with cipherd.Client(f"127.0.0.1:{port}", timeout=2) as c, pytest.raises(cipherd.UnavailableError):
        c.encrypt("demo", b"x")

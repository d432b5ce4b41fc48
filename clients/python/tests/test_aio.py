"""The asyncio client against the real server: every CryptoService RPC, admin, streams, cancellation, deadlines."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator

import pytest

import cipherd
from cipherd import CiphertextItem, EncryptItem
from server import RunningServer


async def test_unary_calls_and_batches(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name)
        ciphertext = await c.encrypt(key_name, b"hello", context=b"ctx")
        assert await c.decrypt(ciphertext, context=b"ctx") == b"hello"
        await c.rotate_key(key_name)
        assert (await c.inspect(ciphertext)).behind_current
        rewrapped = await c.re_encrypt(ciphertext, context=b"ctx")
        assert rewrapped.key_version == 2
        batch = await c.encrypt_batch(key_name, [EncryptItem(b"a", reference="a"), b"b"])
        texts = [r.unwrap() for r in batch]
        decrypted = await c.decrypt_batch([*texts, CiphertextItem(texts[0], context=b"x", reference="bad")])
        assert [r.value for r in decrypted[:2]] == [b"a", b"b"]
        assert isinstance(decrypted[2].error, cipherd.DecryptionFailedError)
        assert decrypted[2].error.reason == "DECRYPTION_FAILED"
        moved = await c.re_encrypt_batch(texts)
        assert all(r.unwrap().key_version == 2 for r in moved)
        assert key_name in [k.key_name async for k in c.list_keys(page_size=2)]
        assert (await c.get_key(key_name)).current_version == 2


async def test_errors_come_from_the_same_table(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        with pytest.raises(cipherd.NotFoundError) as missing:
            await c.encrypt(key_name, b"x")
        assert missing.value.reason == "KEY_NOT_FOUND"
        await c.create_key(key_name)
        with pytest.raises(cipherd.AlreadyExistsError) as taken:
            await c.create_key(key_name)
        assert taken.value.reason == "KEY_ALREADY_EXISTS"
        with pytest.raises(cipherd.FailedPreconditionError):
            await c.update_key_policy(key_name, cipherd.KeyPolicy(min_encryption_version=5))


async def test_stream_from_an_async_iterable(plain_server: RunningServer) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        texts = [await c.encrypt("demo", bytes([i])) for i in range(20)]

        async def items() -> AsyncIterator[CiphertextItem]:
            for i, t in enumerate(texts):
                yield CiphertextItem(t if i != 5 else "<demo/v1:gcm>", reference=str(i))

        results = [r async for r in c.re_encrypt_stream(items())]
        assert [r.reference for r in results] == [str(i) for i in range(20)]
        assert isinstance(results[5].error, cipherd.InvalidArgumentError)
        assert await c.decrypt(results[7].unwrap().ciphertext) == bytes([7])


async def test_cancelling_the_task_cancels_the_stream(plain_server: RunningServer) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        ciphertext = await c.encrypt("demo", b"x")
        got_one = asyncio.Event()

        async def forever() -> AsyncIterator[str]:
            yield ciphertext
            await asyncio.sleep(3600)
            yield ciphertext

        async def consume() -> None:
            async for _ in c.re_encrypt_stream(forever()):
                got_one.set()

        task = asyncio.create_task(consume())
        await asyncio.wait_for(got_one.wait(), 30)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await c.decrypt(await c.encrypt("demo", b"after")) == b"after"


async def test_stream_deadline_is_deadline_exceeded(plain_server: RunningServer) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:

        async def stalled() -> AsyncIterator[str]:
            await asyncio.sleep(3600)
            yield "never"

        with pytest.raises(cipherd.DeadlineExceededError):
            async for _ in c.re_encrypt_stream(stalled(), timeout=0.5):
                pass


async def test_indexes_data_keys_and_files(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name + "-idx", mode=cipherd.Mode.HMAC)
        email = cipherd.Normalization(trim=True, casefold=True)
        index = await c.compute_index(key_name + "-idx", " Bob@Example.com", normalization=email, length_bytes=8)
        batch = await c.compute_index_batch(
            key_name + "-idx", ["bob@example.com", b"\xff"], normalization=email, length_bytes=8
        )
        assert batch[0].unwrap() == index.index and isinstance(batch[1].error, cipherd.InvalidArgumentError)

        await c.create_key(key_name)
        row = await c.encrypt(key_name, b"BOB@example.com ", context=b"col")
        reindexed = await c.re_index(
            key_name + "-idx", row, context=b"col", normalization=email, length_bytes=8, expected_key=key_name
        )
        assert (reindexed.index, reindexed.key_version, reindexed.source_key_version) == (index.index, 1, 1)
        rows = await c.re_index_batch(
            key_name + "-idx",
            [CiphertextItem(row, context=b"col", reference="r"), row],
            normalization=email,
            length_bytes=8,
        )
        assert rows[0].unwrap().index == index.index and isinstance(rows[1].error, cipherd.DecryptionFailedError)
        data_key = await c.generate_data_key(key_name, context=b"k")
        assert await c.decrypt(data_key.wrapped_key, context=b"k") == data_key.plaintext_key

        plaintext = bytes(range(256)) * 100
        sealed, opened, moved = io.BytesIO(), io.BytesIO(), io.BytesIO()
        assert (
            await c.encrypt_file(key_name, io.BytesIO(plaintext), sealed, context=b"f", chunk_size=1000)
        ).plaintext_bytes == len(plaintext)
        await c.rotate_key(key_name)
        sealed.seek(0)
        assert (await c.rewrap_file_key(sealed, moved, context=b"f")).key_version == 2
        moved.seek(0)
        assert (await c.decrypt_file(moved, opened, context=b"f")).key_version == 2
        assert opened.getvalue() == plaintext
        moved.seek(0)
        with pytest.raises(cipherd.DecryptionFailedError):
            await c.decrypt_file(moved, io.BytesIO(), context=b"other")


async def test_re_encrypt_stream_rewraps_a_context_bound_column(plain_server: RunningServer, key_name: str) -> None:
    async with cipherd.AsyncClient(plain_server.target) as c:
        await c.create_key(key_name)
        ct = await c.encrypt(key_name, b"user@example.com", context=b"users.email/7")
        await c.rotate_key(key_name)
        [without] = [r async for r in c.re_encrypt_stream([CiphertextItem(ct, reference="7")])]
        assert isinstance(without.error, cipherd.DecryptionFailedError)
        assert "check that the context" in str(without.error)
        [with_context] = [
            r async for r in c.re_encrypt_stream([CiphertextItem(ct, context=b"users.email/7", reference="7")])
        ]
        rewrapped = with_context.unwrap()
        assert rewrapped.key_version == 2
        assert await c.decrypt(rewrapped.ciphertext, context=b"users.email/7") == b"user@example.com"

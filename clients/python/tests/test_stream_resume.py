"""A long stream broken mid-way by stopping the server, resumed on a new server over the same key store:
every item answered exactly once across both runs, in order, and each answer right."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest

import cipherd
from cipherd import CiphertextItem, EncryptItem, ItemResult
from server import RunningServer, start_server

ITEMS = 2500
BREAK_AFTER = 500
# Items large enough that the transport's buffers (a few MiB) hold only a few hundred: the server is
# still answering when it stops, rather than done with answers the client has yet to read.
ITEM_BYTES = 16 * 1024
# Read slowly once the server is told to stop, so the stream is still open when its grace period ends.
SLOW_READ_S = 0.002


pytestmark = pytest.mark.server  # each test starts and stops its own servers


def _plaintext(i: int) -> bytes:
    return f"row {i};".encode().ljust(ITEM_BYTES, b".")


def _encrypt_items() -> Iterator[EncryptItem]:
    return (EncryptItem(_plaintext(i), context=b"t", reference=f"row-{i}") for i in range(ITEMS))


def _stop_soon(server: RunningServer) -> threading.Thread:
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    return stopper


def test_encrypt_stream_broken_by_a_stop_resumes_after_the_last_reference(tmp_path: Path) -> None:
    workdir = tmp_path / "server"
    first = start_server(workdir, [], grpc.insecure_channel)
    answered: list[ItemResult[str]] = []
    try:
        with cipherd.Client(first.target) as c:
            c.create_key("resumed")
            stopper = None
            with pytest.raises(cipherd.CipherdError) as broken:
                for result in c.encrypt_stream("resumed", _encrypt_items()):
                    answered.append(result)
                    if len(answered) == BREAK_AFTER:
                        stopper = _stop_soon(first)
                    if stopper is not None:
                        time.sleep(SLOW_READ_S)
            assert stopper is not None
            stopper.join()
    finally:
        first.stop()
    assert BREAK_AFTER <= len(answered) < ITEMS, "the stream was not broken mid-way"
    assert broken.value.last_reference == answered[-1].reference
    assert isinstance(broken.value, (cipherd.UnavailableError, cipherd.CallCancelledError)), broken.value

    second = start_server(workdir, [], grpc.insecure_channel)
    try:
        with cipherd.Client(second.target) as c:
            resumed = list(c.encrypt_stream("resumed", _encrypt_items(), resume_after=broken.value.last_reference))
            everything = answered + resumed
            assert [r.reference for r in everything] == [f"row-{i}" for i in range(ITEMS)]
            decrypted = list(
                c.decrypt_stream(CiphertextItem(r.unwrap(), context=b"t", reference=r.reference) for r in everything)
            )
    finally:
        second.stop()
    assert [r.reference for r in decrypted] == [r.reference for r in everything]
    assert all(r.unwrap() == _plaintext(i) for i, r in enumerate(decrypted))


async def test_async_decrypt_stream_broken_by_a_stop_resumes_after_the_last_reference(tmp_path: Path) -> None:
    workdir = tmp_path / "server"
    first = start_server(workdir, [], grpc.insecure_channel)
    answered: list[ItemResult[bytes]] = []
    try:
        async with cipherd.AsyncClient(first.target) as c:
            await c.create_key("resumed")
            texts = [r.unwrap() async for r in c.encrypt_stream("resumed", _encrypt_items())]

            async def items() -> AsyncIterator[CiphertextItem]:
                for i, text in enumerate(texts):
                    yield CiphertextItem(text, context=b"t", reference=f"row-{i}")

            stopper = None
            with pytest.raises(cipherd.CipherdError) as broken:
                async for result in c.decrypt_stream(items()):
                    answered.append(result)
                    if len(answered) == BREAK_AFTER:
                        stopper = _stop_soon(first)
                    if stopper is not None:
                        await asyncio.sleep(SLOW_READ_S)
            assert stopper is not None
            await asyncio.to_thread(stopper.join)
    finally:
        first.stop()
    assert BREAK_AFTER <= len(answered) < ITEMS, "the stream was not broken mid-way"
    assert broken.value.last_reference == answered[-1].reference

    second = start_server(workdir, [], grpc.insecure_channel)
    try:
        async with cipherd.AsyncClient(second.target) as c:
            resumed = [r async for r in c.decrypt_stream(items(), resume_after=broken.value.last_reference)]
    finally:
        second.stop()
    everything = answered + resumed
    assert [r.reference for r in everything] == [f"row-{i}" for i in range(ITEMS)]
    assert all(r.unwrap() == _plaintext(i) for i, r in enumerate(everything))

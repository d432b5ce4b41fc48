"""The file helpers stream: a multi-MiB file goes through in chunk-sized reads and writes, with memory
bounded by a few chunks rather than by the file."""

from __future__ import annotations

import hashlib
import os
import tracemalloc
from pathlib import Path
from typing import BinaryIO

from cipherd import DataKey
from cipherd._files import operations

CHUNK = 4096
SEALED_CHUNK = CHUNK + 16
FILE_BYTES = 6 * 1024 * 1024 + 1234
KEY = bytes(range(32))
WRAPPED = "<files/v1:gcm>" + "A" * 80


class Recording:
    """A file that remembers the largest single read and write made through it."""

    def __init__(self, file: BinaryIO) -> None:
        self.file = file
        self.largest_read = 0
        self.largest_write = 0

    def read(self, size: int, /) -> bytes:
        assert size >= 0, "a read of the whole file"
        data = self.file.read(size)
        self.largest_read = max(self.largest_read, len(data))
        return data

    def write(self, data: bytes, /) -> int:
        self.largest_write = max(self.largest_write, len(data))
        return self.file.write(data)


def _write_random_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("wb") as f:
        for _ in range(0, FILE_BYTES, 1 << 20):
            block = os.urandom(min(1 << 20, FILE_BYTES - f.tell()))
            digest.update(block)
            f.write(block)
    return digest.hexdigest()


def _sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def test_multi_mib_round_trip_reads_and_writes_chunk_by_chunk(tmp_path: Path) -> None:
    plain, sealed, opened = tmp_path / "plain", tmp_path / "sealed", tmp_path / "opened"
    expected = _write_random_file(plain)

    tracemalloc.start()
    try:
        with plain.open("rb") as p, sealed.open("wb") as s:
            source, destination = Recording(p), Recording(s)
            operations.encrypt(source, destination, DataKey(KEY, WRAPPED, 1), CHUNK)
        assert source.largest_read == CHUNK and destination.largest_write == SEALED_CHUNK
        with sealed.open("rb") as s, opened.open("wb") as o:
            source, destination = Recording(s), Recording(o)
            result = operations.decrypt(source, destination, lambda wrapped: KEY)
        assert source.largest_read == SEALED_CHUNK and destination.largest_write == CHUNK
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()

    assert peak < 256 * 1024, f"peak {peak} bytes: the helpers held more than a few chunks"
    chunks = -(-FILE_BYTES // CHUNK)
    assert sealed.stat().st_size == 27 + 2 + len(WRAPPED) + FILE_BYTES + 16 * chunks
    assert result.plaintext_bytes == FILE_BYTES
    assert _sha256_of(opened) == expected

"""STREAM (Hoang, Reyhanitabar, Rogaway, Vizár 2015) over AES-256-GCM: each chunk sealed under the nonce
prefix ‖ uint32 index ‖ last flag, so chunks cannot be moved, repeated, dropped at the end or appended to.

Both directions hold at most two chunks in memory: a chunk is sealed or opened only once the next read
tells whether it is the last."""

from __future__ import annotations

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from cipherd._files.header import FileHeader, read_exactly
from cipherd.errors import FileChunkError, FileHeaderError, FileTruncatedError
from cipherd.types import ReadableFile, WritableFile

TAG_LENGTH = 16
DATA_KEY_LENGTH = 32
MAX_CHUNKS = 2**32


def _nonce(header: FileHeader, index: int, last: bool) -> bytes:
    return header.nonce_prefix + index.to_bytes(4, "big") + (b"\x01" if last else b"\x00")


def seal(source: ReadableFile, destination: WritableFile, header: FileHeader, data_key: bytes) -> int:
    """Writes the chunks of everything `source` holds (after the header the caller wrote); returns its length."""
    if len(data_key) != DATA_KEY_LENGTH:
        raise ValueError("the data key must be 256 bits")
    aead = AESGCM(data_key)
    current = read_exactly(source, header.chunk_size)
    total = 0
    for index in range(MAX_CHUNKS):
        following = read_exactly(source, header.chunk_size) if len(current) == header.chunk_size else b""
        last = not following
        destination.write(aead.encrypt(_nonce(header, index, last), current, header.fixed))
        total += len(current)
        if last:
            return total
        current = following
    raise ValueError("the plaintext needs more than 2^32 chunks; use a larger chunk size")


def open_chunks(source: ReadableFile, destination: WritableFile, header: FileHeader, data_key: bytes) -> int:
    """Writes the plaintext of the chunks after the header, each only once it verified; returns its length.

    On an error, what was written is a verified prefix of the plaintext, never the whole of it."""
    if len(data_key) != DATA_KEY_LENGTH:
        raise FileHeaderError("the wrapped key does not hold a 256-bit data key")
    aead = AESGCM(data_key)
    sealed_size = header.chunk_size + TAG_LENGTH
    current = read_exactly(source, sealed_size)
    total = 0
    for index in range(MAX_CHUNKS):
        following = read_exactly(source, sealed_size) if len(current) == sealed_size else b""
        plaintext = _open_chunk(aead, header, index, current, last=not following)
        destination.write(plaintext)
        total += len(plaintext)
        if not following:
            return total
        current = following
    raise FileChunkError("it has more than 2^32 chunks")


def _open_chunk(aead: AESGCM, header: FileHeader, index: int, chunk: bytes, last: bool) -> bytes:
    if last and len(chunk) < TAG_LENGTH:
        raise FileTruncatedError("it ends before its last chunk")
    try:
        return aead.decrypt(_nonce(header, index, last), chunk, header.fixed)
    except InvalidTag:
        pass
    if last and _opens_as_middle_chunk(aead, header, index, chunk):
        raise FileTruncatedError("it ends before its last chunk") from None
    raise FileChunkError(f"chunk {index} failed to authenticate") from None


def _opens_as_middle_chunk(aead: AESGCM, header: FileHeader, index: int, chunk: bytes) -> bool:
    # A final chunk that verifies as a non-final one means the chunks after it were cut off, which
    # deserves its own error; the plaintext it yields is discarded all the same.
    try:
        aead.decrypt(_nonce(header, index, False), chunk, header.fixed)
        return True
    except InvalidTag:
        return False

"""encrypt_file, decrypt_file and rewrap_file_key without the server: the calls they need (a data key,
unwrapping it, rewrapping it) come in as values or functions, so the sync and asyncio clients share this
and tests can give the vectors' keys directly."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable

from cipherd._files import stream
from cipherd._files.header import NONCE_PREFIX_LENGTH, FileHeader, read_header
from cipherd._files.paths import reading, writing
from cipherd.types import DataKey, FileDestination, FileResult, FileSource, Rewrapped

_COPY_BUFFER = 1024 * 1024


def encrypt(
    source: FileSource,
    destination: FileDestination,
    data_key: DataKey,
    chunk_size: int,
    nonce_prefix: bytes | None = None,
) -> FileResult:
    """Writes `source` to `destination` in the file format under `data_key`. The nonce prefix is random
    unless given: only tests give one, since two files with one data key and prefix break GCM."""
    if data_key.plaintext_key is None:
        raise ValueError("encrypting a file needs the data key's plaintext")
    prefix = nonce_prefix if nonce_prefix is not None else os.urandom(NONCE_PREFIX_LENGTH)
    header = FileHeader(chunk_size, prefix, data_key.wrapped_key)
    with reading(source) as src, writing(destination) as dst:
        dst.write(header.encode())
        length = stream.seal(src, dst, header, data_key.plaintext_key)
    return FileResult(header.wrapping.key_name, header.wrapping.key_version, length)


def decrypt(source: FileSource, destination: FileDestination, unwrap: Callable[[str], bytes]) -> FileResult:
    """Writes the plaintext of the file `source` to `destination`, with the data key `unwrap` gets from
    the header's wrapped key. The header is read before a destination path is touched."""
    with reading(source) as src:
        header = read_header(src)
        data_key = unwrap(header.wrapped_key)
        with writing(destination) as dst:
            length = stream.open_chunks(src, dst, header, data_key)
    return FileResult(header.wrapping.key_name, header.wrapping.key_version, length)


def rewrap(
    source: FileSource, destination: FileDestination | None, rewrap_key: Callable[[str], Rewrapped]
) -> Rewrapped:
    """Copies the file with its wrapped key replaced by `rewrap_key`'s; the chunks are copied untouched,
    since the wrapped key is not part of their associated data. No destination rewrites a source path in
    place (through a temporary file, like any destination path)."""
    if destination is None:
        if not isinstance(source, (str, os.PathLike)):
            raise ValueError("rewrapping an open file needs a destination")
        destination = source
    with reading(source) as src:
        header = read_header(src)
        rewrapped = rewrap_key(header.wrapped_key)
        new_header = dataclasses.replace(header, wrapped_key=rewrapped.ciphertext)
        with writing(destination) as dst:
            dst.write(new_header.encode())
            while block := src.read(_COPY_BUFFER):
                dst.write(block)
    return rewrapped

"""The values the clients take and return, independent of the generated protobuf classes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeAlias, TypeVar

from cipherd.envelope import Mode
from cipherd.errors import CipherdError
from cipherd.legacy import LegacyCiphertext

T = TypeVar("T")


class ReadableFile(Protocol):
    """A binary file the file helpers read from (open(..., "rb"), io.BytesIO, a socket's makefile("rb")...)."""

    def read(self, size: int, /) -> bytes: ...


class WritableFile(Protocol):
    """A binary file the file helpers write to (open(..., "wb"), io.BytesIO...)."""

    def write(self, data: bytes, /) -> int: ...


# What the file helpers take: a path, or a file object used as it is, from its position, and left open.
FileSource: TypeAlias = ReadableFile | str | os.PathLike[str]
FileDestination: TypeAlias = WritableFile | str | os.PathLike[str]


@dataclass(frozen=True)
class EncryptItem:
    """One plaintext of encrypt_batch or encrypt_stream; `reference` is echoed in its result.

    `key_name` (streams only) encrypts this item with another key than the call's. `subject` seals this item under
    that data subject's key, as encrypt's `subject`; empty means the call's. Its repr shows neither the plaintext
    nor the subject."""

    plaintext: bytes = field(repr=False)
    context: bytes = b""
    reference: str = ""
    key_name: str = ""
    subject: str = field(default="", repr=False)


@dataclass(frozen=True)
class CiphertextItem:
    """One ciphertext of decrypt_batch, decrypt_stream, re_encrypt_batch or re_encrypt_stream;
    `reference` is echoed in its result.

    The rewraps also take a LegacyCiphertext, data encrypted before cipherd, which they rewrap into the
    call's key_name. `key_name` (re_encrypt_stream only) rewraps this item into another key than the
    call's; empty keeps the ciphertext's own. `expected_key` is the key this item must be under (a name,
    or a prefix ending in '*'), as the calls' expected_key; empty means the call's."""

    ciphertext: str | LegacyCiphertext = field(repr=False)
    context: bytes = b""
    reference: str = ""
    key_name: str = ""
    expected_key: str = ""


@dataclass(frozen=True)
class Rewrapped:
    """A ciphertext rewrapped by re_encrypt: the new text, its version and the version it came from."""

    ciphertext: str = field(repr=False)
    key_version: int
    source_key_version: int


@dataclass(frozen=True)
class Inspection:
    """What the server says of a ciphertext's header: its key version and mode, and the key's current version.
    A `subject_bound` ciphertext names no version (key_version 0) and is never behind_current: the server's sweep
    moves its subject's key to the current version."""

    key_name: str
    key_version: int
    mode: Mode
    current_version: int
    behind_current: bool
    subject_bound: bool = False


@dataclass(frozen=True)
class Normalization:
    """How compute_index makes a value canonical first (proto/README.md, Blind indexes): `trim` Unicode
    White_Space at both ends, then `nfkc`, then `casefold`. Store and query with the same one, e.g. one
    constant per column; any step needs the value to be UTF-8 text."""

    trim: bool = False
    nfkc: bool = False
    casefold: bool = False


@dataclass(frozen=True)
class IndexItem:
    """One value of compute_index_batch (str is indexed as its UTF-8 bytes); `reference` is echoed in its result."""

    value: bytes | str = field(repr=False)
    reference: str = ""


@dataclass(frozen=True)
class BlindIndex:
    """A value's blind index under `key_version`; with all_versions, `versions` maps every usable version
    (newest first) to the value's index under it, for `WHERE idx IN (...)` across a rotation."""

    index: bytes = field(repr=False)
    key_version: int
    versions: dict[int, bytes] = field(default_factory=dict, repr=False)


@dataclass(frozen=True)
class ReIndexed:
    """A ciphertext's plaintext indexed by re_index inside the server: the blind index under the index
    key's current version `key_version`, and the version the ciphertext was under."""

    index: bytes = field(repr=False)
    key_version: int
    source_key_version: int


@dataclass(frozen=True)
class DataKey:
    """A data key from generate_data_key: the key bytes (None when omitted) and the same key wrapped by
    the named key, a ciphertext that decrypt unwraps. Use the plaintext key, then drop it; keep only the
    wrapped one."""

    plaintext_key: bytes | None = field(repr=False)
    wrapped_key: str = field(repr=False)
    key_version: int


@dataclass(frozen=True)
class FileResult:
    """What encrypt_file or decrypt_file did: the key version that wraps the file's data key, and the
    plaintext bytes read or written."""

    key_name: str
    key_version: int
    plaintext_bytes: int


@dataclass(frozen=True)
class TlsConfig:
    """TLS to the server: `ca` (PEM) to trust instead of the system roots; `cert` and `key` (PEM) for mutual TLS."""

    ca: bytes | None = None
    cert: bytes | None = None
    key: bytes | None = field(default=None, repr=False)
    server_name: str | None = None


@dataclass(frozen=True)
class ItemResult(Generic[T]):
    """The outcome of one item of a batch or stream: a value or the error the item failed with."""

    reference: str
    value: T | None = field(repr=False)
    error: CipherdError | None
    key_version: int = 0

    @property
    def ok(self) -> bool:
        return self.error is None

    def unwrap(self) -> T:
        """The value, or raises the item's error."""
        if self.error is not None:
            raise self.error
        assert self.value is not None
        return self.value

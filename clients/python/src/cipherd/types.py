"""The values the clients take and return, independent of the generated protobuf classes."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from cipherd.envelope import Mode
from cipherd.errors import CipherdError

T = TypeVar("T")


@dataclass(frozen=True)
class EncryptItem:
    """One plaintext of encrypt_batch; `reference` is echoed in its result."""

    plaintext: bytes = field(repr=False)
    context: bytes = b""
    reference: str = ""


@dataclass(frozen=True)
class CiphertextItem:
    """One ciphertext of decrypt_batch, re_encrypt_batch or re_encrypt_stream.

    `key_name` (streams only) rewraps into another key; empty keeps the ciphertext's own."""

    ciphertext: str = field(repr=False)
    context: bytes = b""
    reference: str = ""
    key_name: str = ""


@dataclass(frozen=True)
class Rewrapped:
    """A ciphertext rewrapped by re_encrypt: the new text, its version and the version it came from."""

    ciphertext: str = field(repr=False)
    key_version: int
    source_key_version: int


@dataclass(frozen=True)
class Inspection:
    """What the server says of a ciphertext's header: its key version and mode, and the key's current version."""

    key_name: str
    key_version: int
    mode: Mode
    current_version: int
    behind_current: bool


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

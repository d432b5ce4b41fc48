"""The file header: the 27 fixed bytes every chunk authenticates, then the wrapped data key."""

from __future__ import annotations

from dataclasses import dataclass, field

from cipherd.envelope import Envelope, parse_ciphertext
from cipherd.errors import FileHeaderError, InvalidCiphertextError
from cipherd.types import ReadableFile

MAGIC = b"cipherd-file-v1\n"
NONCE_PREFIX_LENGTH = 7
FIXED_LENGTH = len(MAGIC) + 4 + NONCE_PREFIX_LENGTH
MIN_CHUNK_SIZE = 16
MAX_CHUNK_SIZE = 16 * 1024 * 1024
DEFAULT_CHUNK_SIZE = 64 * 1024
MAX_WRAPPED_LENGTH = 4096


def check_chunk_size(chunk_size: int) -> None:
    if not MIN_CHUNK_SIZE <= chunk_size <= MAX_CHUNK_SIZE:
        raise ValueError(f"the chunk size must be {MIN_CHUNK_SIZE} to {MAX_CHUNK_SIZE} bytes, not {chunk_size}")


@dataclass(frozen=True)
class FileHeader:
    """A valid header; construction raises ValueError for anything the format does not allow."""

    chunk_size: int
    nonce_prefix: bytes
    wrapped_key: str = field(repr=False)
    wrapping: Envelope = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_chunk_size(self.chunk_size)
        if len(self.nonce_prefix) != NONCE_PREFIX_LENGTH:
            raise ValueError(f"the nonce prefix must be {NONCE_PREFIX_LENGTH} bytes")
        if not 1 <= len(self.wrapped_key) <= MAX_WRAPPED_LENGTH:
            raise ValueError(f"the wrapped key must be 1 to {MAX_WRAPPED_LENGTH} characters")
        try:
            object.__setattr__(self, "wrapping", parse_ciphertext(self.wrapped_key))
        except InvalidCiphertextError as e:
            raise ValueError(f"the wrapped key is not a ciphertext ({e.defect})") from None

    @property
    def fixed(self) -> bytes:
        """Magic, chunk size and nonce prefix: the associated data of every chunk."""
        return MAGIC + self.chunk_size.to_bytes(4, "big") + self.nonce_prefix

    def encode(self) -> bytes:
        wrapped = self.wrapped_key.encode("ascii")
        return self.fixed + len(wrapped).to_bytes(2, "big") + wrapped


def read_exactly(source: ReadableFile, n: int) -> bytes:
    """`n` bytes, or fewer only at the end of the stream (a single read may return less than asked)."""
    parts: list[bytes] = []
    remaining = n
    while remaining:
        part = source.read(remaining)
        if not part:
            break
        parts.append(part)
        remaining -= len(part)
    return b"".join(parts)


def read_header(source: ReadableFile) -> FileHeader:
    """Reads the header at the stream's position, leaving it at the first chunk; FileHeaderError if invalid."""
    fixed = read_exactly(source, FIXED_LENGTH + 2)
    if len(fixed) < FIXED_LENGTH + 2:
        raise FileHeaderError("it ends inside the header")
    if fixed[: len(MAGIC)] != MAGIC:
        raise FileHeaderError("it does not start with the cipherd-file-v1 magic")
    chunk_size = int.from_bytes(fixed[len(MAGIC) : len(MAGIC) + 4], "big")
    wrapped_length = int.from_bytes(fixed[FIXED_LENGTH:], "big")
    if not 1 <= wrapped_length <= MAX_WRAPPED_LENGTH:
        raise FileHeaderError(f"the wrapped key's length must be 1 to {MAX_WRAPPED_LENGTH}")
    wrapped = read_exactly(source, wrapped_length)
    if len(wrapped) < wrapped_length:
        raise FileHeaderError("it ends inside the header")
    try:
        return FileHeader(chunk_size, fixed[len(MAGIC) + 4 : FIXED_LENGTH], wrapped.decode("ascii"))
    except UnicodeDecodeError:
        raise FileHeaderError("the wrapped key is not ASCII") from None
    except ValueError as e:
        raise FileHeaderError(str(e)) from None

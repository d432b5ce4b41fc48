"""cipherd client: sync (Client) and asyncio (AsyncClient) clients of the cipherd encryption service,
the local ciphertext parser (parse_ciphertext), the data-key file helpers (Client.encrypt_file, ...), key
metadata with usage (Key, KeyCensus), legacy ciphertexts to rewrap (LegacyCiphertext) and one exception class
per gRPC status."""
from cipherd.aio import AsyncClient
from cipherd.client import Client
from cipherd.envelope import Envelope, Mode, parse_ciphertext
from cipherd.errors import (
    AbortedError, AlreadyExistsError, AuditUnavailableError, CallCancelledError, CipherdError, DeadlineExceededError,
    DecryptionFailedError, FailedPreconditionError, FileChunkError, FileHeaderError, FileTruncatedError, InternalError,
    InvalidArgumentError, InvalidCiphertextError, InvalidFileError, KeyDisabledError, KeyVersionDestroyedError,
    KeyVersionDestructionScheduledError, KeyVersionsInUseError, NotFoundError, PermissionDeniedError,
    ResourceExhaustedError, UnauthenticatedError, UnavailableError, UnexpectedKeyError, error_for,
)
from cipherd.types import (
    BlindIndex, CiphertextItem, DataKey, EncryptItem, FileDestination, FileResult, FileSource, IndexItem, Inspection,
    ItemResult, Normalization, ReadableFile, ReIndexed, Rewrapped, TlsConfig, WritableFile,
)
from cipherd.keys import (
    DataInventory, Key, KeyCensus, KeyPolicy, KeyState, KeyVersion, KeyVersionState, KeyVersionUsage, Retirement,
    VersionCensus,
)
from cipherd.legacy import LegacyCipher, LegacyCiphertext, LegacyIv

__all__ = [
    "AsyncClient", "Client", "Envelope", "Mode", "parse_ciphertext",
    "AbortedError", "AlreadyExistsError", "CallCancelledError", "CipherdError", "DeadlineExceededError", "DecryptionFailedError",
    "FailedPreconditionError", "FileChunkError", "FileHeaderError", "FileTruncatedError", "InternalError",
    "InvalidArgumentError", "InvalidCiphertextError", "InvalidFileError", "NotFoundError", "PermissionDeniedError",
    "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "UnexpectedKeyError", "error_for",
    "AuditUnavailableError", "KeyDisabledError", "KeyVersionDestroyedError", "KeyVersionDestructionScheduledError",
    "KeyVersionsInUseError",
    "BlindIndex", "CiphertextItem", "DataKey", "EncryptItem", "FileDestination", "FileResult", "FileSource", "IndexItem",
    "Inspection", "ItemResult", "Normalization", "ReadableFile", "ReIndexed", "Rewrapped", "TlsConfig", "WritableFile",
    "DataInventory", "Key", "KeyCensus", "KeyPolicy", "KeyState", "KeyVersion", "KeyVersionState", "KeyVersionUsage",
    "Retirement", "VersionCensus",
    "LegacyCipher", "LegacyCiphertext", "LegacyIv",
]

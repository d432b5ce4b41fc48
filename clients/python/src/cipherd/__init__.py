"""cipherd client: sync (Client) and asyncio (AsyncClient) clients of the cipherd encryption service,
the local ciphertext parser (parse_ciphertext), the data-key file helpers (Client.encrypt_file, ...) and one
exception class per gRPC status."""
from cipherd.aio import AsyncClient
from cipherd.client import Client
from cipherd.envelope import Envelope, Mode, parse_ciphertext
from cipherd.errors import (
    AlreadyExistsError, CallCancelledError, CipherdError, DeadlineExceededError, DecryptionFailedError,
    FailedPreconditionError, FileChunkError, FileHeaderError, FileTruncatedError, InternalError, InvalidArgumentError,
    InvalidCiphertextError, InvalidFileError, NotFoundError, PermissionDeniedError, ResourceExhaustedError,
    UnauthenticatedError, UnavailableError, error_for,
)
from cipherd.types import (
    BlindIndex, CiphertextItem, DataKey, EncryptItem, FileDestination, FileResult, FileSource, IndexItem, Inspection,
    ItemResult, Normalization, ReadableFile, Rewrapped, TlsConfig, WritableFile,
)
from cipherd.v1.keys_pb2 import Key, KeyPolicy, KeyVersion

__all__ = [
    "AsyncClient", "Client", "Envelope", "Mode", "parse_ciphertext",
    "AlreadyExistsError", "CallCancelledError", "CipherdError", "DeadlineExceededError", "DecryptionFailedError",
    "FailedPreconditionError", "FileChunkError", "FileHeaderError", "FileTruncatedError", "InternalError",
    "InvalidArgumentError", "InvalidCiphertextError", "InvalidFileError", "NotFoundError", "PermissionDeniedError",
    "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "error_for",
    "BlindIndex", "CiphertextItem", "DataKey", "EncryptItem", "FileDestination", "FileResult", "FileSource", "IndexItem",
    "Inspection", "ItemResult", "Normalization", "ReadableFile", "Rewrapped", "TlsConfig", "WritableFile",
    "Key", "KeyPolicy", "KeyVersion",
]

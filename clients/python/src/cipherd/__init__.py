"""cipherd client: sync (Client) and asyncio (AsyncClient) clients of the cipherd encryption service,
the local ciphertext parser (parse_ciphertext) and one exception class per gRPC status."""
from cipherd.aio import AsyncClient
from cipherd.client import Client
from cipherd.envelope import Envelope, Mode, parse_ciphertext
from cipherd.errors import (
    AlreadyExistsError, CallCancelledError, CipherdError, DeadlineExceededError, DecryptionFailedError,
    FailedPreconditionError, InternalError, InvalidArgumentError, InvalidCiphertextError, NotFoundError,
    PermissionDeniedError, ResourceExhaustedError, UnauthenticatedError, UnavailableError, error_for,
)
from cipherd.types import CiphertextItem, EncryptItem, Inspection, ItemResult, Rewrapped, TlsConfig
from cipherd.v1.keys_pb2 import Key, KeyPolicy, KeyVersion

__all__ = [
    "AsyncClient", "Client", "Envelope", "Mode", "parse_ciphertext",
    "AlreadyExistsError", "CallCancelledError", "CipherdError", "DeadlineExceededError", "DecryptionFailedError",
    "FailedPreconditionError", "InternalError", "InvalidArgumentError", "InvalidCiphertextError", "NotFoundError",
    "PermissionDeniedError", "ResourceExhaustedError", "UnauthenticatedError", "UnavailableError", "error_for",
    "CiphertextItem", "EncryptItem", "Inspection", "ItemResult", "Rewrapped", "TlsConfig",
    "Key", "KeyPolicy", "KeyVersion",
]

"""cipherd's errors as Python exceptions: one class per gRPC status, mapped in one table.

Calls and the failed items of batches and streams go through the same table, so
`except cipherd.NotFoundError` catches a missing key wherever it shows up."""
from __future__ import annotations

from collections.abc import Mapping

import grpc

# The server says only this when a well-formed ciphertext does not decrypt (proto/README.md, Errors).
DECRYPTION_FAILED_MESSAGE = "decryption failed"


class CipherdError(Exception):
    """Base of every error the client raises; `code` is the gRPC status, `details` the server's message."""

    code: grpc.StatusCode = grpc.StatusCode.UNKNOWN

    def __init_subclass__(cls, code: grpc.StatusCode | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(self, details: str, code: grpc.StatusCode | None = None) -> None:
        super().__init__(details)
        self.details = details
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code.name}: {self.details}"


class InvalidArgumentError(CipherdError, code=grpc.StatusCode.INVALID_ARGUMENT):
    """The request was wrong: a bad key name, a malformed ciphertext, a context for an unauthenticated mode..."""


class DecryptionFailedError(InvalidArgumentError):
    """A well-formed ciphertext did not decrypt: wrong key, context or tampered. Never says which."""


class InvalidCiphertextError(InvalidArgumentError):
    """A ciphertext broke the format; `reason` is one of proto/README.md's reasons (e.g. "version_invalid")."""

    def __init__(self, reason: str, details: str) -> None:
        super().__init__(details)
        self.reason = reason


class InvalidFileError(InvalidArgumentError):
    """A data-key file (proto/README.md, Data-key file format) did not read back; `reason` is one of
    datakey_files.json's reasons. Plaintext from before the failure must be thrown away."""

    reason = ""

    def __init__(self, details: str) -> None:
        super().__init__(f"invalid data-key file: {details}")


class FileHeaderError(InvalidFileError):
    """The file's header is cut short, has another magic, a chunk size out of range or a bad wrapped key."""

    reason = "header_invalid"


class FileTruncatedError(InvalidFileError):
    """The file ends before a chunk sealed as the last one: it was cut short."""

    reason = "truncated"


class FileChunkError(InvalidFileError):
    """A chunk failed to authenticate at its position: changed, moved, under another header or followed by bytes."""

    reason = "chunk_invalid"


class NotFoundError(CipherdError, code=grpc.StatusCode.NOT_FOUND): ...
class AlreadyExistsError(CipherdError, code=grpc.StatusCode.ALREADY_EXISTS): ...
class PermissionDeniedError(CipherdError, code=grpc.StatusCode.PERMISSION_DENIED): ...
class UnauthenticatedError(CipherdError, code=grpc.StatusCode.UNAUTHENTICATED): ...
class FailedPreconditionError(CipherdError, code=grpc.StatusCode.FAILED_PRECONDITION): ...
class ResourceExhaustedError(CipherdError, code=grpc.StatusCode.RESOURCE_EXHAUSTED): ...
class UnavailableError(CipherdError, code=grpc.StatusCode.UNAVAILABLE): ...
class DeadlineExceededError(CipherdError, code=grpc.StatusCode.DEADLINE_EXCEEDED): ...
class CallCancelledError(CipherdError, code=grpc.StatusCode.CANCELLED): ...
class InternalError(CipherdError, code=grpc.StatusCode.INTERNAL): ...


# The one table from status to exception class, for calls and batch or stream items alike.
ERROR_BY_STATUS: Mapping[grpc.StatusCode, type[CipherdError]] = {cls.code: cls for cls in (
    InvalidArgumentError, NotFoundError, AlreadyExistsError, PermissionDeniedError, UnauthenticatedError,
    FailedPreconditionError, ResourceExhaustedError, UnavailableError, DeadlineExceededError, CallCancelledError,
    InternalError,
)}
_STATUS_BY_NUMBER = {status.value[0]: status for status in grpc.StatusCode}


def error_for(code: grpc.StatusCode | int, details: str) -> CipherdError:
    """The exception for a status, given as grpc.StatusCode (a call) or its number (a batch item)."""
    status = code if isinstance(code, grpc.StatusCode) else _STATUS_BY_NUMBER.get(code, grpc.StatusCode.UNKNOWN)
    if status is grpc.StatusCode.INVALID_ARGUMENT and details == DECRYPTION_FAILED_MESSAGE:
        return DecryptionFailedError(details)
    cls = ERROR_BY_STATUS.get(status)
    return cls(details) if cls is not None else CipherdError(details, status)


def from_rpc_error(error: grpc.RpcError) -> CipherdError:
    """The exception for a failed call (grpc.RpcError and grpc.aio.AioRpcError alike)."""
    code: grpc.StatusCode = error.code()
    details: str | None = error.details()
    return error_for(code, details or code.name.lower())

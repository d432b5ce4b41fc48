"""cipherd's errors as Python exceptions: one class per gRPC status, refined by the error's reason.

Calls and the failed items of batches and streams go through the same mapping, so
`except cipherd.NotFoundError` catches a missing key wherever it shows up. A call's reason is the
google.rpc.ErrorInfo (domain cipherd.io) in its status details, an item's is `ItemError.reason`
(proto/README.md, "Errors"); the message is for people and never decides anything."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from types import MappingProxyType
from typing import cast

import grpc
from google.protobuf.message import DecodeError
from google.rpc.error_details_pb2 import ErrorInfo
from google.rpc.status_pb2 import Status
from grpc_status import rpc_status

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1.error_reason_pb2 import ErrorReason

# The ErrorInfo domain of cipherd's own errors; an ErrorInfo of another domain (a proxy's) is not ours to read.
ERROR_DOMAIN = "cipherd.io"


class CipherdError(Exception):
    """Base of every error the client raises; `code` is the gRPC status, `details` the server's message,
    `reason` the server's kind of error (proto/README.md, "Errors"; "" when gRPC itself failed the call).

    `metadata` is the ErrorInfo's metadata (proto/README.md, "Errors"): the key, version or versions the error
    is about; empty for a batch or stream item's error and when the server sent none.

    When it ended an item stream, `last_reference` is the reference of the last item answered (or the
    call's resume_after if none was): pass it as resume_after to a new call with the same items."""

    code: grpc.StatusCode = grpc.StatusCode.UNKNOWN
    reason: str = ""
    metadata: Mapping[str, str] = MappingProxyType({})
    last_reference: str | None = None

    def __init_subclass__(cls, code: grpc.StatusCode | None = None, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code

    def __init__(self, details: str, code: grpc.StatusCode | None = None, reason: str = "") -> None:
        super().__init__(details)
        self.details = details
        if code is not None:
            self.code = code
        if reason:
            self.reason = reason

    def __str__(self) -> str:
        return f"{self.code.name}: {self.details}"


class InvalidArgumentError(CipherdError, code=grpc.StatusCode.INVALID_ARGUMENT):
    """The request was wrong: a bad key name, a malformed ciphertext, a context for an unauthenticated mode..."""


DECRYPTION_FAILED_HINT = (
    "check that the context is the one given at encryption, byte for byte (none if none was), "
    "that the ciphertext is intact, and that its key is this server's"
)


class DecryptionFailedError(InvalidArgumentError):
    """A well-formed ciphertext did not decrypt: wrong key, context or tampered. Never says which: its
    text says what to check."""

    def __str__(self) -> str:
        return f"{super().__str__()} ({DECRYPTION_FAILED_HINT})"


class InvalidCiphertextError(InvalidArgumentError):
    """A ciphertext broke the format (`reason` "INVALID_CIPHERTEXT"). When this client's parser found it,
    `defect` says how (one of proto/README.md's envelope defects, e.g. "version_invalid"); the server does
    not say, so from a call it is ""."""

    def __init__(self, details: str, defect: str = "") -> None:
        super().__init__(details, reason=ErrorReason.Name(ErrorReason.INVALID_CIPHERTEXT))
        self.defect = defect


class UnexpectedKeyError(InvalidArgumentError):
    """The ciphertext's header names a key other than the call's `expected_key` (`reason` "UNEXPECTED_KEY"):
    refused before anything was decrypted, as a value planted under another key must be. `metadata` names
    both: "key" (the ciphertext's) and "expected_key"."""


class InvalidFileError(InvalidArgumentError):
    """A data-key file (proto/README.md, Data-key file format) did not read back, found by this client;
    `defect` is one of datakey_files.json's reasons. Plaintext from before the failure must be thrown away."""

    defect = ""

    def __init__(self, details: str) -> None:
        super().__init__(f"invalid data-key file: {details}")


class FileHeaderError(InvalidFileError):
    """The file's header is cut short, has another magic, a chunk size out of range or a bad wrapped key."""

    defect = "header_invalid"


class FileTruncatedError(InvalidFileError):
    """The file ends before a chunk sealed as the last one: it was cut short."""

    defect = "truncated"


class FileChunkError(InvalidFileError):
    """A chunk failed to authenticate at its position: changed, moved, under another header or followed by bytes."""

    defect = "chunk_invalid"


class NotFoundError(CipherdError, code=grpc.StatusCode.NOT_FOUND): ...


class AlreadyExistsError(CipherdError, code=grpc.StatusCode.ALREADY_EXISTS): ...


class PermissionDeniedError(CipherdError, code=grpc.StatusCode.PERMISSION_DENIED): ...


class UnauthenticatedError(CipherdError, code=grpc.StatusCode.UNAUTHENTICATED): ...


class FailedPreconditionError(CipherdError, code=grpc.StatusCode.FAILED_PRECONDITION): ...


class ResourceExhaustedError(CipherdError, code=grpc.StatusCode.RESOURCE_EXHAUSTED): ...


class UnavailableError(CipherdError, code=grpc.StatusCode.UNAVAILABLE): ...


class DeadlineExceededError(CipherdError, code=grpc.StatusCode.DEADLINE_EXCEEDED): ...


class CallCancelledError(CipherdError, code=grpc.StatusCode.CANCELLED): ...


class AbortedError(CipherdError, code=grpc.StatusCode.ABORTED):
    """Another writer changed the key first (reason CONCURRENT_UPDATE): safe to retry."""


class InternalError(CipherdError, code=grpc.StatusCode.INTERNAL): ...


# A key's lifecycle (proto/README.md, "Errors"): each refusal is a FailedPreconditionError of its own.


class KeyDisabledError(FailedPreconditionError):
    """The key is disabled, scheduled for deletion or deleted: it serves no call until enabled (or its
    deletion cancelled)."""


class KeyVersionDestructionScheduledError(FailedPreconditionError):
    """The version is scheduled for destruction and refuses every call until the destruction is cancelled."""


class KeyVersionDestroyedError(FailedPreconditionError):
    """The version's bytes were destroyed: its ciphertexts can never be decrypted again. Never a
    DecryptionFailedError: nothing is wrong with the ciphertext."""


class KeyVersionsInUseError(FailedPreconditionError):
    """retire_key_versions refused: `versions` (ascending) of the key were used within the quiet period on
    some replica, or the inventory `source` still counts ciphertexts under them. Rewrap their data, scan
    again or wait a quiet period, retry."""

    @property
    def source(self) -> str | None:
        """The source of the inventory that refused (e.g. "postgres:users.email"); None when traffic did."""
        return self.metadata.get("source") or None

    @property
    def versions(self) -> tuple[int, ...]:
        """The versions in use, from the error's metadata; () when it names none."""
        try:
            return tuple(int(v) for v in self.metadata.get("versions", "").split(",") if v.strip())
        except ValueError:  # not the server's list: say nothing rather than something wrong
            return ()


class AuditUnavailableError(UnavailableError):
    """The server requires an audit record for every call and could not write this one, so it did not serve
    the call; retry later."""


class SubjectErasedError(FailedPreconditionError):
    """The ciphertext's data subject was erased (erase_subject): its data can never be decrypted again; or an
    encrypt named an erased subject without renew_erased_subject. Never a DecryptionFailedError. `metadata`
    names the key and the erase_time (RFC 3339), never the subject."""

    @property
    def erase_time(self) -> datetime | None:
        """When the subject was erased, from the error's metadata; None when it names none (an item's error)."""
        text = self.metadata.get("erase_time", "")
        # RFC 3339 may carry nanoseconds; datetime holds microseconds, as Timestamp.ToDatetime gives them.
        text = re.sub(r"(\.\d{6})\d+", r"\1", text).replace("Z", "+00:00")
        try:
            return datetime.fromisoformat(text) if text else None
        except ValueError:  # not the server's time: say nothing rather than something wrong
            return None


class SubjectQuotaExceededError(ResourceExhaustedError):
    """This caller made new subject keys faster than the server allows; subjects that already have a key still
    work; retry later."""


class SubjectStoreNotConfiguredError(FailedPreconditionError):
    """A call with a subject (or on a subject-bound ciphertext, or an erasure) reached a server that keeps its keys
    in Vault and has no subject store every replica shares (no --subject-store-url; docs/subject-store.md): the
    operator must configure one. Calls without a subject still work."""


class PlaintextImportDisabledError(FailedPreconditionError):
    """ImportKey carried key material in the clear and the server takes only wrapped material: wrap it for an
    import job (create_import_job) and import that, or have the operator allow plaintext import."""


class ImportJobUnusableError(FailedPreconditionError):
    """The import job named is unknown, expired, already used, or made for another key: create a new one."""


class KeyNotExportableError(FailedPreconditionError):
    """backup_key named a key that was not made exportable (create_key(exportable=True), set_key_exportable)."""


class KeyMaterialUnusableError(FailedPreconditionError):
    """The key version's stored material did not unwrap with the server's key-encryption key: retrying does not
    help, the server's operator must (its log says why). metadata has the key and version."""


# The one table from status to exception class, for calls and batch or stream items alike.
ERROR_BY_STATUS: Mapping[grpc.StatusCode, type[CipherdError]] = {
    cls.code: cls
    for cls in (
        InvalidArgumentError,
        NotFoundError,
        AlreadyExistsError,
        PermissionDeniedError,
        UnauthenticatedError,
        FailedPreconditionError,
        AbortedError,
        ResourceExhaustedError,
        UnavailableError,
        DeadlineExceededError,
        CallCancelledError,
        InternalError,
    )
}
# Every reason of the schema (ErrorReason of error_reason.proto, the values of ErrorInfo.reason; proto/README.md,
# "Errors") and its class: a subclass of its status's class where the reason picks out a finer kind, else the
# status's class itself. A value the proto adds fails test_every_reason_of_the_schema_has_a_class until it has one.
ERROR_BY_REASON_VALUE: Mapping[ErrorReason.ValueType, type[CipherdError]] = MappingProxyType(
    {
        ErrorReason.INVALID_ARGUMENT: InvalidArgumentError,
        ErrorReason.INVALID_CIPHERTEXT: InvalidCiphertextError,
        ErrorReason.UNEXPECTED_KEY: UnexpectedKeyError,
        ErrorReason.DECRYPTION_FAILED: DecryptionFailedError,
        ErrorReason.KEY_NOT_FOUND: NotFoundError,
        ErrorReason.KEY_ALREADY_EXISTS: AlreadyExistsError,
        ErrorReason.POLICY_DENIED: FailedPreconditionError,
        ErrorReason.KEY_DISABLED: KeyDisabledError,
        ErrorReason.KEY_VERSION_DESTRUCTION_SCHEDULED: KeyVersionDestructionScheduledError,
        ErrorReason.KEY_VERSION_DESTROYED: KeyVersionDestroyedError,
        ErrorReason.KEY_VERSIONS_IN_USE: KeyVersionsInUseError,
        ErrorReason.CONCURRENT_UPDATE: AbortedError,
        ErrorReason.STORE_UNAVAILABLE: UnavailableError,
        ErrorReason.AUDIT_UNAVAILABLE: AuditUnavailableError,
        ErrorReason.STORE_ACCESS_DENIED: PermissionDeniedError,
        ErrorReason.POOL_EXHAUSTED: ResourceExhaustedError,
        ErrorReason.SERVER_BUSY: ResourceExhaustedError,
        ErrorReason.ACCESS_DENIED: PermissionDeniedError,
        ErrorReason.UNAUTHENTICATED: UnauthenticatedError,
        ErrorReason.STREAM_IDLE: CallCancelledError,
        ErrorReason.INTERNAL: InternalError,
        ErrorReason.SUBJECT_ERASED: SubjectErasedError,
        ErrorReason.SUBJECT_QUOTA_EXCEEDED: SubjectQuotaExceededError,
        ErrorReason.SUBJECT_STORE_NOT_CONFIGURED: SubjectStoreNotConfiguredError,
        ErrorReason.PLAINTEXT_IMPORT_DISABLED: PlaintextImportDisabledError,
        ErrorReason.IMPORT_JOB_UNUSABLE: ImportJobUnusableError,
        ErrorReason.KEY_NOT_EXPORTABLE: KeyNotExportableError,
        ErrorReason.KEY_MATERIAL_UNUSABLE: KeyMaterialUnusableError,
    }
)
# The same by the reason's name, as the wire carries it ("DECRYPTION_FAILED"); a reason this client does not know
# yet is not here, and leaves the class to the status code.
ERROR_BY_REASON: Mapping[str, type[CipherdError]] = MappingProxyType(
    {ErrorReason.Name(value): cls for value, cls in ERROR_BY_REASON_VALUE.items()}
)
_STATUS_BY_NUMBER = {status.value[0]: status for status in grpc.StatusCode}


def error_for(
    code: grpc.StatusCode | int, details: str, reason: str = "", metadata: Mapping[str, str] | None = None
) -> CipherdError:
    """The exception for a status, given as grpc.StatusCode (a call) or its number (a batch item), its reason
    and its ErrorInfo metadata."""
    status = code if isinstance(code, grpc.StatusCode) else _STATUS_BY_NUMBER.get(code, grpc.StatusCode.UNKNOWN)
    refined = ERROR_BY_REASON.get(reason)
    error: CipherdError
    # A reason refines only the status it belongs to, so an exception's class and its code never disagree.
    if refined is InvalidCiphertextError and status is refined.code:
        error = InvalidCiphertextError(details)
    elif refined is not None and status is refined.code:
        error = refined(details, reason=reason)
    else:
        cls = ERROR_BY_STATUS.get(status)
        error = cls(details, reason=reason) if cls is not None else CipherdError(details, status, reason)
    if metadata:
        error.metadata = MappingProxyType(dict(metadata))
    return error


def from_item_error(error: pb.ItemError) -> CipherdError:
    """The exception for a failed item of a batch or stream."""
    return error_for(error.code, error.message, error.reason)


def from_rpc_error(error: grpc.RpcError) -> CipherdError:
    """The exception for a failed call (grpc.RpcError and grpc.aio.AioRpcError alike)."""
    code: grpc.StatusCode = error.code()
    details: str | None = error.details()
    info = _error_info(error)
    return error_for(code, details or code.name.lower(), info.reason, info.metadata)


def _error_info(error: grpc.RpcError) -> ErrorInfo:
    """The call's cipherd ErrorInfo, or an empty one when its status carries none."""
    try:
        # from_call reads only code(), details() and trailing_metadata(), which every RpcError has (an
        # AioRpcError is no grpc.Call, but has the three, synchronously).
        status = cast("Status | None", rpc_status.from_call(cast(grpc.Call, error)))
    except (ValueError, DecodeError):  # details that contradict the call or do not parse: not the server's
        return ErrorInfo()
    if status is None:
        return ErrorInfo()
    info = ErrorInfo()
    for detail in status.details:
        if detail.Unpack(info) and info.domain == ERROR_DOMAIN:
            return info
    return ErrorInfo()

"""The one status-to-exception mapping, for calls and for batch items, and proto/testdata/errors.json through it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc.error_details_pb2 import ErrorInfo
from google.rpc.status_pb2 import Status

import cipherd
from cipherd.errors import (
    ERROR_BY_REASON,
    ERROR_BY_REASON_VALUE,
    ERROR_BY_STATUS,
    ERROR_DOMAIN,
    error_for,
    from_item_error,
    from_rpc_error,
)
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1.error_reason_pb2 import ErrorReason

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "proto" / "testdata" / "errors.json").read_text(encoding="utf-8")
)

# errors.json's error kinds, as this client's classes.
ERROR_BY_KIND: dict[str, type[cipherd.CipherdError]] = {
    "invalid_argument": cipherd.InvalidArgumentError,
    "decryption_failed": cipherd.DecryptionFailedError,
    "invalid_ciphertext": cipherd.InvalidCiphertextError,
    "unexpected_key": cipherd.UnexpectedKeyError,
    "not_found": cipherd.NotFoundError,
    "already_exists": cipherd.AlreadyExistsError,
    "permission_denied": cipherd.PermissionDeniedError,
    "unauthenticated": cipherd.UnauthenticatedError,
    "failed_precondition": cipherd.FailedPreconditionError,
    "aborted": cipherd.AbortedError,
    "resource_exhausted": cipherd.ResourceExhaustedError,
    "unavailable": cipherd.UnavailableError,
    "deadline_exceeded": cipherd.DeadlineExceededError,
    "cancelled": cipherd.CallCancelledError,
    "internal": cipherd.InternalError,
    "key_disabled": cipherd.KeyDisabledError,
    "key_version_destruction_scheduled": cipherd.KeyVersionDestructionScheduledError,
    "key_version_destroyed": cipherd.KeyVersionDestroyedError,
    "key_versions_in_use": cipherd.KeyVersionsInUseError,
    "audit_unavailable": cipherd.AuditUnavailableError,
    "subject_erased": cipherd.SubjectErasedError,
    "subject_quota_exceeded": cipherd.SubjectQuotaExceededError,
    "subject_store_not_configured": cipherd.SubjectStoreNotConfiguredError,
    "plaintext_import_disabled": cipherd.PlaintextImportDisabledError,
    "import_job_unusable": cipherd.ImportJobUnusableError,
    "key_not_exportable": cipherd.KeyNotExportableError,
    "key_material_unusable": cipherd.KeyMaterialUnusableError,
}


class FailedCall(grpc.RpcError):
    """A failed call as grpc hands it over: its code, its message and, when cipherd sent one, the status with
    its ErrorInfo in the trailing metadata."""

    def __init__(self, code: grpc.StatusCode, message: str, details: Status | None) -> None:
        super().__init__(message)
        self._code, self._message = code, message
        self._trailing: tuple[Any, ...] = (
            () if details is None else (("grpc-status-details-bin", details.SerializeToString()),)
        )

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str | None:
        return self._message

    def trailing_metadata(self) -> tuple[Any, ...]:  # (key, value) pairs at run time; grpc-stubs says _Metadatum
        return self._trailing


def failed_call(
    code: grpc.StatusCode, reason: str, message: str, domain: str = ERROR_DOMAIN, metadata: dict[str, str] | None = None
) -> FailedCall:
    """The call a server fails with (code, message) and, unless reason is "", an ErrorInfo of that reason."""
    if not reason:
        return FailedCall(code, message, None)
    status = Status(code=code.value[0], message=message)
    status.details.add().Pack(ErrorInfo(reason=reason, domain=domain, metadata=metadata or {}))
    return FailedCall(code, message, status)


def assert_is_kind(error: cipherd.CipherdError, case: dict[str, Any]) -> None:
    """The error is the case's kind and its 'also' kinds, and no other kind (a bare invalid_argument must not
    be a decryption failure, though every decryption failure is an invalid_argument)."""
    expected = {case["error"], *case.get("also", [])}
    matched = {kind for kind, cls in ERROR_BY_KIND.items() if isinstance(error, cls)}
    assert matched == expected, f"{type(error).__name__} matches {sorted(matched)}"
    assert error.code.name == case["code"]
    assert error.reason == case["reason"]
    assert error.details == case["message"]


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_failed_call_of_vector_raises_its_kind(case: dict[str, Any]) -> None:
    error = from_rpc_error(
        failed_call(grpc.StatusCode[case["code"]], case["reason"], case["message"], metadata=case.get("metadata"))
    )
    assert_is_kind(error, case)
    assert dict(error.metadata) == case.get("metadata", {})
    if "versions_in_use" in case:
        assert isinstance(error, cipherd.KeyVersionsInUseError)
        assert error.versions == tuple(case["versions_in_use"])
        assert error.source == case.get("inventory_source")


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_item_error_of_vector_is_its_kind(case: dict[str, Any]) -> None:
    item = pb.ItemError(code=grpc.StatusCode[case["code"]].value[0], reason=case["reason"], message=case["message"])
    error = from_item_error(item)
    assert_is_kind(error, case)
    assert dict(error.metadata) == {}  # an ItemError carries none


def test_versions_in_use_that_do_not_parse_name_none() -> None:
    error = from_rpc_error(
        failed_call(
            grpc.StatusCode.FAILED_PRECONDITION,
            "KEY_VERSIONS_IN_USE",
            "in use",
            metadata={"key": "k", "versions": "1,two"},
        )
    )
    assert isinstance(error, cipherd.KeyVersionsInUseError) and error.versions == ()


def test_every_kind_of_the_vectors_has_a_class() -> None:
    kinds = {k for case in VECTORS["cases"] for k in (case["error"], *case.get("also", []))}
    assert kinds <= ERROR_BY_KIND.keys()


def test_every_reason_of_the_schema_has_a_class() -> None:
    """A value added to error_reason.proto fails here until ERROR_BY_REASON_VALUE maps it."""
    sent = [v for v in ErrorReason.DESCRIPTOR.values if v.number != ErrorReason.ERROR_REASON_UNSPECIFIED]
    assert set(ERROR_BY_REASON_VALUE) == {v.number for v in sent}
    assert set(ERROR_BY_REASON) == {v.name for v in sent}


@pytest.mark.parametrize("reason", sorted(ERROR_BY_REASON))
def test_each_reason_under_its_status_is_its_class_for_a_call_and_an_item(reason: str) -> None:
    cls = ERROR_BY_REASON[reason]
    assert issubclass(cls, ERROR_BY_STATUS[cls.code])
    call = from_rpc_error(failed_call(cls.code, reason, "m"))
    item = from_item_error(pb.ItemError(code=cls.code.value[0], reason=reason, message="m"))
    for error in (call, item):
        assert type(error) is cls and error.reason == reason and error.code is cls.code


def test_a_reason_this_client_does_not_know_is_left_to_the_status() -> None:
    assert "SOME_FUTURE_REASON" not in ERROR_BY_REASON
    error = error_for(grpc.StatusCode.FAILED_PRECONDITION, "m", "SOME_FUTURE_REASON")
    assert type(error) is cipherd.FailedPreconditionError and error.reason == "SOME_FUTURE_REASON"


def test_error_info_of_another_domain_is_not_read() -> None:
    call = failed_call(grpc.StatusCode.INVALID_ARGUMENT, "DECRYPTION_FAILED", "nope", domain="proxy.example")
    error = from_rpc_error(call)
    assert type(error) is cipherd.InvalidArgumentError and error.reason == ""


def test_details_that_contradict_the_call_are_not_read() -> None:
    status = Status(code=grpc.StatusCode.INVALID_ARGUMENT.value[0], message="another message")
    status.details.add().Pack(ErrorInfo(reason="DECRYPTION_FAILED", domain=ERROR_DOMAIN))
    error = from_rpc_error(FailedCall(grpc.StatusCode.INVALID_ARGUMENT, "decryption failed", status))
    assert type(error) is cipherd.InvalidArgumentError and error.reason == ""


def test_details_that_do_not_parse_are_not_read() -> None:
    call = FailedCall(grpc.StatusCode.NOT_FOUND, "gone", None)
    call._trailing = (("grpc-status-details-bin", b"\xff\xff not a status"),)
    error = from_rpc_error(call)
    assert type(error) is cipherd.NotFoundError and error.reason == ""


def test_reason_of_another_status_does_not_change_the_class() -> None:
    error = error_for(grpc.StatusCode.NOT_FOUND, "gone", "DECRYPTION_FAILED")
    assert type(error) is cipherd.NotFoundError and error.code is grpc.StatusCode.NOT_FOUND


@pytest.mark.parametrize("status", list(ERROR_BY_STATUS), ids=lambda s: s.name)
def test_each_status_maps_to_its_class_by_enum_and_by_number(status: grpc.StatusCode) -> None:
    by_enum = error_for(status, "why")
    by_number = error_for(status.value[0], "why")
    assert type(by_enum) is ERROR_BY_STATUS[status] is type(by_number)
    assert by_enum.code is status and by_number.code is status
    assert str(by_enum) == f"{status.name}: why"


def test_unlisted_status_is_a_plain_cipherd_error_with_its_code() -> None:
    error = error_for(grpc.StatusCode.DATA_LOSS.value[0], "lost")
    assert type(error) is cipherd.CipherdError and error.code is grpc.StatusCode.DATA_LOSS


def test_unknown_number_is_unknown() -> None:
    assert error_for(99, "?").code is grpc.StatusCode.UNKNOWN


def test_decryption_failed_is_its_own_invalid_argument_by_reason_only() -> None:
    error = error_for(grpc.StatusCode.INVALID_ARGUMENT, "any wording", "DECRYPTION_FAILED")
    assert isinstance(error, cipherd.DecryptionFailedError)
    assert isinstance(error, cipherd.InvalidArgumentError)
    assert not isinstance(
        error_for(grpc.StatusCode.INVALID_ARGUMENT, "decryption failed"), cipherd.DecryptionFailedError
    )

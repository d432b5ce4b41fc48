"""The one status-to-exception table, for calls and for batch items."""
from __future__ import annotations

import grpc
import pytest

import cipherd
from cipherd.errors import ERROR_BY_STATUS, error_for


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


def test_decryption_failed_is_its_own_invalid_argument() -> None:
    error = error_for(grpc.StatusCode.INVALID_ARGUMENT, "decryption failed")
    assert isinstance(error, cipherd.DecryptionFailedError)
    assert isinstance(error, cipherd.InvalidArgumentError)
    assert not isinstance(error_for(grpc.StatusCode.INVALID_ARGUMENT, "bad key name"), cipherd.DecryptionFailedError)

"""The data-key file format against proto/testdata/datakey_files.json, through the helpers' internal
seam (cipherd._files.operations), which takes the data key instead of calling the server."""

from __future__ import annotations

import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from cipherd import (
    DataKey,
    FileChunkError,
    FileHeaderError,
    FileTruncatedError,
    InvalidArgumentError,
    InvalidFileError,
    Rewrapped,
)
from cipherd._files import operations

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[3] / "proto" / "testdata" / "datakey_files.json").read_text(encoding="utf-8")
)
DATA_KEY = bytes.fromhex(VECTORS["data_key_hex"])
WRAPPED_KEY: str = VECTORS["wrapped_key"]
NONCE_PREFIX = bytes.fromhex(VECTORS["nonce_prefix_hex"])
ERROR_BY_REASON: dict[str, type[InvalidFileError]] = {
    "header_invalid": FileHeaderError,
    "truncated": FileTruncatedError,
    "chunk_invalid": FileChunkError,
}


class Unwrapper:
    """Stands in for Decrypt: gives the vectors' data key for the vectors' wrapped keys, and counts calls."""

    def __init__(self, key: bytes = DATA_KEY) -> None:
        self.key = key
        self.calls = 0

    def __call__(self, wrapped: str) -> bytes:
        assert wrapped in (WRAPPED_KEY, VECTORS["rewrapped"]["wrapped_key"])
        self.calls += 1
        return self.key


def decrypt_bytes(file: bytes, unwrap: Unwrapper | None = None) -> bytes:
    out = io.BytesIO()
    operations.decrypt(io.BytesIO(file), out, unwrap or Unwrapper())
    return out.getvalue()


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["name"])
def test_valid_file_decrypts_to_its_plaintext(case: dict[str, Any]) -> None:
    out = io.BytesIO()
    result = operations.decrypt(io.BytesIO(bytes.fromhex(case["file_hex"])), out, Unwrapper())
    assert out.getvalue().hex() == case["plaintext_hex"]
    assert (result.key_name, result.key_version, result.plaintext_bytes) == (
        "files",
        1,
        len(case["plaintext_hex"]) // 2,
    )


@pytest.mark.parametrize("case", VECTORS["valid"], ids=lambda c: c["name"])
def test_encrypting_with_the_vector_inputs_reproduces_the_file(case: dict[str, Any]) -> None:
    out = io.BytesIO()
    operations.encrypt(
        io.BytesIO(bytes.fromhex(case["plaintext_hex"])),
        out,
        DataKey(DATA_KEY, WRAPPED_KEY, 1),
        case["chunk_size"],
        nonce_prefix=NONCE_PREFIX,
    )
    assert out.getvalue().hex() == case["file_hex"]


@pytest.mark.parametrize("case", VECTORS["invalid"], ids=lambda c: c["name"])
def test_invalid_file_is_rejected_for_its_reason(case: dict[str, Any]) -> None:
    unwrap = Unwrapper()
    with pytest.raises(InvalidFileError) as raised:
        decrypt_bytes(bytes.fromhex(case["file_hex"]), unwrap)
    assert type(raised.value) is ERROR_BY_REASON[case["reason"]]
    assert raised.value.defect == case["reason"]
    assert isinstance(raised.value, InvalidArgumentError)
    if case["reason"] == "header_invalid":
        assert unwrap.calls == 0, "a bad header must fail before the data key is unwrapped"


def test_every_reason_has_a_case_and_its_own_message() -> None:
    assert {c["reason"] for c in VECTORS["invalid"]} == set(VECTORS["reasons"]) == set(ERROR_BY_REASON)
    messages = set()
    for reason in ERROR_BY_REASON:
        case = next(c for c in VECTORS["invalid"] if c["reason"] == reason)
        with pytest.raises(InvalidFileError) as raised:
            decrypt_bytes(bytes.fromhex(case["file_hex"]))
        messages.add(str(raised.value))
    assert len(messages) == len(ERROR_BY_REASON)


def test_rewrapped_file_decrypts_with_the_same_data_key() -> None:
    assert decrypt_bytes(bytes.fromhex(VECTORS["rewrapped"]["file_hex"])).hex() == VECTORS["valid"][3]["plaintext_hex"]


def test_rewrap_replaces_the_header_and_copies_the_chunks() -> None:
    new_wrapped = VECTORS["rewrapped"]["wrapped_key"]
    out = io.BytesIO()
    result = operations.rewrap(
        io.BytesIO(bytes.fromhex(VECTORS["valid"][3]["file_hex"])),
        out,
        lambda wrapped: Rewrapped(new_wrapped, 2, 1) if wrapped == WRAPPED_KEY else _fail(),
    )
    assert result.key_version == 2
    assert out.getvalue().hex() == VECTORS["rewrapped"]["file_hex"]


def _fail() -> Rewrapped:
    raise AssertionError("rewrap got another wrapped key than the file's")


def test_another_data_key_fails_on_the_first_chunk() -> None:
    with pytest.raises(FileChunkError, match="chunk 0"):
        decrypt_bytes(bytes.fromhex(VECTORS["valid"][1]["file_hex"]), Unwrapper(bytes(32)))


def test_a_data_key_of_another_size_is_a_header_error() -> None:
    with pytest.raises(FileHeaderError):
        decrypt_bytes(bytes.fromhex(VECTORS["valid"][1]["file_hex"]), Unwrapper(DATA_KEY[:16]))


def test_file_cut_inside_its_last_chunk_is_truncated() -> None:
    file = bytes.fromhex(VECTORS["valid"][1]["file_hex"])
    header_length = len(file) - (14 + 16)  # "short" is one 14-byte chunk
    with pytest.raises(FileTruncatedError):
        decrypt_bytes(file[: header_length + 15])


@pytest.mark.parametrize("chunk_size", [0, 15, 16 * 1024 * 1024 + 1])
def test_chunk_size_outside_the_format_is_refused(chunk_size: int) -> None:
    with pytest.raises(ValueError, match="chunk size"):
        operations.encrypt(io.BytesIO(b"x"), io.BytesIO(), DataKey(DATA_KEY, WRAPPED_KEY, 1), chunk_size)


def test_encrypting_needs_the_plaintext_key() -> None:
    with pytest.raises(ValueError, match="plaintext"):
        operations.encrypt(io.BytesIO(b"x"), io.BytesIO(), DataKey(None, WRAPPED_KEY, 1), 64)


def test_two_encryptions_draw_different_nonce_prefixes() -> None:
    first, second = io.BytesIO(), io.BytesIO()
    for out in (first, second):
        operations.encrypt(io.BytesIO(b"same"), out, DataKey(DATA_KEY, WRAPPED_KEY, 1), 64)
    assert first.getvalue()[20:27] != second.getvalue()[20:27]
    assert decrypt_bytes(first.getvalue()) == decrypt_bytes(second.getvalue()) == b"same"


def test_failed_decryption_leaves_no_file_at_the_destination_path(tmp_path: Path) -> None:
    source = tmp_path / "in.cfile"
    cut = next(c for c in VECTORS["invalid"] if c["name"] == "last_chunk_dropped")
    source.write_bytes(bytes.fromhex(cut["file_hex"]))
    kept = tmp_path / "kept.txt"
    kept.write_bytes(b"previous contents")
    for target in (tmp_path / "out.txt", kept):
        with pytest.raises(FileTruncatedError):
            operations.decrypt(source, target, Unwrapper())
    assert not (tmp_path / "out.txt").exists()
    assert kept.read_bytes() == b"previous contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cfile", "kept.txt"], "a temporary file was left"


def test_paths_round_trip_and_the_plaintext_file_is_private(tmp_path: Path) -> None:
    plaintext = os.urandom(1000)
    (tmp_path / "plain").write_bytes(plaintext)
    operations.encrypt(tmp_path / "plain", tmp_path / "sealed", DataKey(DATA_KEY, WRAPPED_KEY, 1), 64)
    result = operations.decrypt(str(tmp_path / "sealed"), str(tmp_path / "opened"), Unwrapper())
    assert (tmp_path / "opened").read_bytes() == plaintext and result.plaintext_bytes == 1000
    assert stat.S_IMODE((tmp_path / "opened").stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opened", "plain", "sealed"]


def test_rewrap_in_place_keeps_the_file_decryptable(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(bytes.fromhex(VECTORS["valid"][3]["file_hex"]))
    operations.rewrap(path, None, lambda wrapped: Rewrapped(VECTORS["rewrapped"]["wrapped_key"], 2, 1))
    assert path.read_bytes().hex() == VECTORS["rewrapped"]["file_hex"]
    assert [p.name for p in tmp_path.iterdir()] == ["f"]


def test_rewrap_of_an_open_file_needs_a_destination() -> None:
    with pytest.raises(ValueError, match="destination"):
        operations.rewrap(io.BytesIO(b""), None, lambda wrapped: _fail())


def test_error_messages_hold_no_file_bytes() -> None:
    case = next(c for c in VECTORS["invalid"] if c["name"] == "ciphertext_bit_flipped")
    with pytest.raises(FileChunkError) as raised:
        decrypt_bytes(bytes.fromhex(case["file_hex"]))
    assert "ZGVm" not in str(raised.value) and VECTORS["data_key_hex"][:16] not in str(raised.value)

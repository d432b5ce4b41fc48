"""GenerateDataKey and the data-key file helpers through the sync client against the real server."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

import cipherd
from cipherd import Mode, parse_ciphertext
from cipherd._files.header import read_header


def test_data_key_is_returned_plain_and_wrapped(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    data_key = client.generate_data_key(key_name, context=b"object-1")
    assert data_key.plaintext_key is not None and len(data_key.plaintext_key) == 32
    assert parse_ciphertext(data_key.wrapped_key).key_name == key_name and data_key.key_version == 1
    assert client.decrypt(data_key.wrapped_key, context=b"object-1") == data_key.plaintext_key
    with pytest.raises(cipherd.DecryptionFailedError):
        client.decrypt(data_key.wrapped_key)
    assert client.generate_data_key(key_name).plaintext_key != data_key.plaintext_key


def test_data_key_sizes_and_omitted_plaintext(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode=Mode.XGCM)
    short = client.generate_data_key(key_name, key_size_bits=128)
    assert short.plaintext_key is not None and len(short.plaintext_key) == 16
    assert parse_ciphertext(short.wrapped_key).mode is Mode.XGCM
    omitted = client.generate_data_key(key_name, omit_plaintext=True)
    assert omitted.plaintext_key is None and len(client.decrypt(omitted.wrapped_key)) == 32
    with pytest.raises(cipherd.InvalidArgumentError):
        client.generate_data_key(key_name, key_size_bits=192)


def test_an_index_key_wraps_no_data_key(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name, mode=Mode.HMAC)
    with pytest.raises(cipherd.FailedPreconditionError, match="index key"):
        client.generate_data_key(key_name)


def test_file_round_trip_through_paths(client: cipherd.Client, key_name: str, tmp_path: Path) -> None:
    client.create_key(key_name)
    plaintext = os.urandom(200_000)
    (tmp_path / "report.pdf").write_bytes(plaintext)
    sealed = client.encrypt_file(
        key_name, tmp_path / "report.pdf", tmp_path / "report.pdf.cfile", context=b"reports/7", chunk_size=4096
    )
    assert (sealed.key_name, sealed.key_version, sealed.plaintext_bytes) == (key_name, 1, 200_000)

    with (tmp_path / "report.pdf.cfile").open("rb") as f:
        header = read_header(f)
    assert header.chunk_size == 4096
    assert len(client.decrypt(header.wrapped_key, context=b"reports/7")) == 32, "the header holds a wrapped data key"

    opened = client.decrypt_file(str(tmp_path / "report.pdf.cfile"), str(tmp_path / "copy.pdf"), context=b"reports/7")
    assert opened.plaintext_bytes == 200_000 and (tmp_path / "copy.pdf").read_bytes() == plaintext


def test_file_with_another_context_leaves_no_plaintext(client: cipherd.Client, key_name: str, tmp_path: Path) -> None:
    client.create_key(key_name)
    sealed = io.BytesIO()
    client.encrypt_file(key_name, io.BytesIO(b"secret " * 1000), sealed, context=b"a")
    (tmp_path / "f.cfile").write_bytes(sealed.getvalue())
    with pytest.raises(cipherd.DecryptionFailedError):
        client.decrypt_file(tmp_path / "f.cfile", tmp_path / "out", context=b"b")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.cfile"]


def test_damaged_file_fails_with_its_reason_before_the_rename(
    client: cipherd.Client, key_name: str, tmp_path: Path
) -> None:
    client.create_key(key_name)
    sealed = io.BytesIO()
    client.encrypt_file(key_name, io.BytesIO(os.urandom(1000)), sealed, chunk_size=64)
    damaged = bytearray(sealed.getvalue())
    damaged[-200] ^= 1
    (tmp_path / "f.cfile").write_bytes(bytes(damaged))
    with pytest.raises(cipherd.FileChunkError):
        client.decrypt_file(tmp_path / "f.cfile", tmp_path / "out")
    (tmp_path / "cut.cfile").write_bytes(sealed.getvalue()[: -(1000 % 64 + 16)])
    with pytest.raises(cipherd.FileTruncatedError):
        client.decrypt_file(tmp_path / "cut.cfile", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_rewrap_file_key_after_rotation_keeps_the_chunks(client: cipherd.Client, key_name: str, tmp_path: Path) -> None:
    client.create_key(key_name)
    plaintext = os.urandom(5000)
    path = tmp_path / "f.cfile"
    client.encrypt_file(key_name, io.BytesIO(plaintext), path, context=b"ctx", chunk_size=1024)
    before = path.read_bytes()
    client.rotate_key(key_name, mode=Mode.XGCM)

    rewrapped = client.rewrap_file_key(path, context=b"ctx")
    assert (rewrapped.source_key_version, rewrapped.key_version) == (1, 2)
    after = path.read_bytes()
    with path.open("rb") as f:
        header = read_header(f)
        chunks_after = f.read()
    assert parse_ciphertext(header.wrapped_key).mode is Mode.XGCM and header.wrapped_key == rewrapped.ciphertext
    assert before.endswith(chunks_after) and after.endswith(chunks_after) and before[:27] == after[:27]

    out = io.BytesIO()
    assert client.decrypt_file(path, out, context=b"ctx").key_version == 2
    assert out.getvalue() == plaintext
    assert [p.name for p in tmp_path.iterdir()] == ["f.cfile"]


def test_rewrap_file_key_into_another_key(client: cipherd.Client, key_name: str) -> None:
    client.create_key(key_name)
    client.create_key(key_name + "-new", mode=Mode.SIV)
    sealed, moved = io.BytesIO(), io.BytesIO()
    client.encrypt_file(key_name, io.BytesIO(b"payload"), sealed)
    sealed.seek(0)
    client.rewrap_file_key(sealed, moved, key_name=key_name + "-new")
    moved.seek(0)
    out = io.BytesIO()
    assert client.decrypt_file(moved, out).key_name == key_name + "-new"
    assert out.getvalue() == b"payload"


def test_a_bad_chunk_size_is_refused_before_any_call(client: cipherd.Client, key_name: str) -> None:
    with pytest.raises(ValueError, match="chunk size"):
        client.encrypt_file(key_name, io.BytesIO(b"x"), io.BytesIO(), chunk_size=8)

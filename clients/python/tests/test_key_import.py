"""Wrapped key import against the real server: import jobs, material wrapped here (RSA-OAEP-SHA-256 and RFC
5649 with `cryptography`), imported, and then decrypting data `cryptography` made with the same material; and a
server without --allow-plaintext-key-import refusing material in the clear while taking it wrapped."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from cryptography.hazmat.primitives import hashes, padding, serialization
from cryptography.hazmat.primitives.asymmetric import padding as asymmetric
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap_with_padding

import cipherd
from cipherd import ImportWrappingAlgorithm, LegacyCipher, LegacyCiphertext, LegacyIv, Mode, wrap_key_material
from cipherd.errors import from_rpc_error
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import key_admin_service_pb2_grpc as admin_grpc
from server import RunningServer, start_server


@pytest.fixture(scope="module")
def wrapped_only_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    server = start_server(tmp_path_factory.mktemp("wrapped-only"), [], grpc.insecure_channel)
    try:
        yield server
    finally:
        server.stop()


def test_wrap_key_material_is_rsa_oaep_then_rfc5649() -> None:
    """The local half, undone here with the private key: the layout the server unwraps."""
    private_key = rsa.generate_private_key(public_exponent=65537, key_size=3072)
    pem = private_key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    material = os.urandom(32)
    blob = wrap_key_material(pem, material)
    oaep = asymmetric.OAEP(mgf=asymmetric.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    ephemeral = private_key.decrypt(blob[:384], oaep)
    assert len(blob) == 384 + 40
    assert aes_key_unwrap_with_padding(ephemeral, blob[384:]) == material


@pytest.mark.server
def test_a_job_names_its_key_and_algorithm_and_expires(client: cipherd.Client, key_name: str) -> None:
    job = client.create_import_job(key_name, wrapping_algorithm=ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096)
    public_key = serialization.load_pem_public_key(job.public_key_pem.encode())
    assert isinstance(public_key, rsa.RSAPublicKey)
    assert public_key.key_size == 4096
    assert (job.key_name, job.wrapping_algorithm) == (key_name, ImportWrappingAlgorithm.RSA_AES_KEY_WRAP_SHA256_4096)
    now = datetime.now(UTC)
    assert now + timedelta(hours=23) < job.expire_time <= now + timedelta(hours=24, minutes=1)


@pytest.mark.server
def test_wrapped_gcm_material_encrypts_and_decrypts(client: cipherd.Client, key_name: str) -> None:
    key = client.import_key_wrapped(key_name, os.urandom(32), mode=Mode.GCM)
    assert key.versions[-1].imported
    assert client.decrypt(client.encrypt(key_name, b"hello")) == b"hello"


@pytest.mark.server
def test_wrapped_legacy_material_decrypts_what_cryptography_encrypted(
    wrapped_only_server: RunningServer, key_name: str
) -> None:
    material, iv = os.urandom(32), os.urandom(16)
    padder = padding.PKCS7(128).padder()
    encryptor = Cipher(algorithms.AES(material), modes.CBC(iv)).encryptor()
    data = encryptor.update(padder.update(b"Zo\xc3\xab, 4711") + padder.finalize()) + encryptor.finalize()
    with cipherd.Client(wrapped_only_server.target, timeout=30) as client:
        client.create_key(key_name + "-gcm")
        client.import_key_wrapped(key_name, material, legacy_cipher=LegacyCipher.AES_CBC, legacy_iv=LegacyIv.PREPENDED)
        rewrapped = client.re_encrypt(LegacyCiphertext(key_name, raw=iv + data), key_name=key_name + "-gcm")
        assert client.decrypt(rewrapped.ciphertext) == "Zoë, 4711".encode()


@pytest.mark.server
def test_plaintext_import_is_refused_and_a_used_job_is_unusable(
    wrapped_only_server: RunningServer, key_name: str
) -> None:
    with cipherd.Client(wrapped_only_server.target, timeout=30) as client:
        with pytest.raises(cipherd.PlaintextImportDisabledError) as refused:
            client.import_key(key_name, os.urandom(32))
        assert isinstance(refused.value, cipherd.FailedPreconditionError)
        job = client.create_import_job(key_name)
        blob = wrap_key_material(job.public_key_pem, os.urandom(32))
        request = admin.ImportKeyRequest(key_name=key_name, import_job_id=job.import_job_id, wrapped_key_material=blob)
        with grpc.insecure_channel(wrapped_only_server.target) as channel:
            stub = admin_grpc.KeyAdminServiceStub(channel)
            stub.ImportKey(request, timeout=30)
            with pytest.raises(grpc.RpcError) as again:
                stub.ImportKey(request, timeout=30)
        assert again.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert isinstance(from_rpc_error(again.value), cipherd.ImportJobUnusableError)

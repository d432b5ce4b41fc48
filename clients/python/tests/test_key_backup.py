"""Key backup and restore against an in-memory KeyAdminService that backs up as the server does (a KeyBackupFile
wrapped for the recipient with RSA-OAEP-SHA-256 and RFC 5649) and unwraps what restore_key gets with its job's key,
so the test sees what the client sent; the real server's round trip is in cipherctl's tests and docs/operating.md."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

import grpc
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap_with_padding
from google.protobuf import timestamp_pb2
from google.rpc import status_pb2
from google.rpc.error_details_pb2 import ErrorInfo
from grpc_status import rpc_status

import cipherd
from cipherd import KeyBackupUnopenableError, KeyNotExportableError, KeyVersionState, open_key_backup, wrap_key_material
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import key_admin_service_pb2_grpc as admin_grpc
from cipherd.v1 import keys_pb2
from server import RunningServer, start_server

MATERIAL = bytes([0x5A]) * 32


def _rsa(bits: int) -> tuple[rsa.RSAPrivateKey, bytes, bytes]:
    """A key, its PEM PUBLIC KEY and its PEM PKCS#8 private key (as openssl genpkey writes it)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=bits)
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    private = key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return key, public, private


RECIPIENT = _rsa(3072)
STRANGER = _rsa(3072)
JOB_KEY = _rsa(2048)


def _backed_up_key() -> keys_pb2.Key:
    destroyed = keys_pb2.KeyVersion(version=1, state=keys_pb2.KEY_VERSION_STATE_DESTROYED)
    return keys_pb2.Key(
        key_name="orders",
        current_version=2,
        exportable=True,
        versions=[destroyed, keys_pb2.KeyVersion(version=2, state=keys_pb2.KEY_VERSION_STATE_ENABLED)],
    )


class _BackupServer(admin_grpc.KeyAdminServiceServicer):
    def __init__(self) -> None:
        self.exportable = False
        self.created: admin.CreateKeyRequest | None = None
        self.restored: admin.KeyBackup | None = None
        self.jobs: list[str] = []
        self.restored_names: list[str] = []

    def CreateKey(self, request: admin.CreateKeyRequest, context: grpc.ServicerContext) -> admin.CreateKeyResponse:
        self.created = request
        return admin.CreateKeyResponse(key=keys_pb2.Key(key_name=request.key_name, exportable=request.exportable))

    def SetKeyExportable(
        self, request: admin.SetKeyExportableRequest, context: grpc.ServicerContext
    ) -> admin.SetKeyExportableResponse:
        self.exportable = True
        return admin.SetKeyExportableResponse(key=_backed_up_key())

    def BackupKey(self, request: admin.BackupKeyRequest, context: grpc.ServicerContext) -> admin.BackupKeyResponse:
        if not self.exportable:
            status = status_pb2.Status(code=grpc.StatusCode.FAILED_PRECONDITION.value[0], message="not exportable")
            status.details.add().Pack(ErrorInfo(reason="KEY_NOT_EXPORTABLE", domain="cipherd.io"))
            context.abort_with_status(rpc_status.to_status(status))
        public = serialization.load_pem_public_key(request.recipient_public_key_pem.encode())
        spki = public.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        recipient = hashlib.sha256(spki).digest()
        at = timestamp_pb2.Timestamp()
        at.FromDatetime(datetime(2026, 11, 27, 10, tzinfo=UTC))
        inner = admin.KeyBackup(
            key=_backed_up_key(),
            materials=[admin.KeyVersionMaterial(version=2, key_material=MATERIAL)],
            recipient_key_sha256=recipient,
            backup_time=at,
        )
        wrapped = wrap_key_material(request.recipient_public_key_pem, inner.SerializeToString())
        file = admin.KeyBackupFile(
            format=1, key_name="orders", recipient_key_sha256=recipient, backup_time=at, wrapped_key_backup=wrapped
        )
        return admin.BackupKeyResponse(backup_file=file.SerializeToString(), key=_backed_up_key())

    def CreateImportJob(
        self, request: admin.CreateImportJobRequest, context: grpc.ServicerContext
    ) -> admin.CreateImportJobResponse:
        self.jobs.append(request.key_name)
        job = admin.ImportJob(import_job_id="job-1", key_name=request.key_name, public_key_pem=JOB_KEY[1].decode())
        job.expire_time.GetCurrentTime()
        return admin.CreateImportJobResponse(import_job=job)

    def RestoreKey(self, request: admin.RestoreKeyRequest, context: grpc.ServicerContext) -> admin.RestoreKeyResponse:
        assert request.import_job_id == "job-1"
        self.restored_names.append(request.key_name)
        oaep = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
        blob = request.wrapped_key_backup
        ephemeral = JOB_KEY[0].decrypt(blob[:256], oaep)
        self.restored = admin.KeyBackup.FromString(aes_key_unwrap_with_padding(ephemeral, blob[256:]))
        return admin.RestoreKeyResponse(key=self.restored.key)


@pytest.fixture
def fake() -> Iterator[tuple[_BackupServer, str]]:
    servicer = _BackupServer()  # type: ignore[abstract]  # the backup calls only: the others stay UNIMPLEMENTED
    server = grpc.server(ThreadPoolExecutor(max_workers=2))
    admin_grpc.add_KeyAdminServiceServicer_to_server(servicer, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield servicer, f"127.0.0.1:{port}"
    finally:
        server.stop(grace=None)


def test_backup_then_restore_through_an_import_job(fake: tuple[_BackupServer, str]) -> None:
    servicer, address = fake
    with cipherd.Client(address, timeout=10) as client:
        with pytest.raises(KeyNotExportableError):
            client.backup_key("orders", RECIPIENT[1])
        assert client.set_key_exportable("orders").exportable
        backup = client.backup_key("orders", RECIPIENT[1])
        assert backup.key.key_name == "orders" and MATERIAL not in backup.file
        restored = client.restore_key_backup(backup.file, RECIPIENT[2])
    assert restored.version(1).state is KeyVersionState.DESTROYED and restored.exportable
    assert servicer.jobs == ["orders"] and servicer.restored is not None
    assert servicer.restored_names == ["orders"]
    assert [m.key_material for m in servicer.restored.materials] == [MATERIAL]
    assert (
        servicer.restored.recipient_key_sha256
        == hashlib.sha256(
            RECIPIENT[0]
            .public_key()
            .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        ).digest()
    )


async def test_async_backup_then_restore(fake: tuple[_BackupServer, str]) -> None:
    servicer, address = fake
    servicer.exportable = True
    async with cipherd.AsyncClient(address, timeout=10) as client:
        backup = await client.backup_key("orders", RECIPIENT[1].decode())
        restored = await client.restore_key_backup(backup.file, RECIPIENT[2].decode())
    assert restored.key_name == "orders" and servicer.restored is not None
    assert servicer.restored_names == ["orders"]


def test_create_key_sends_exportable(fake: tuple[_BackupServer, str]) -> None:
    servicer, address = fake
    with cipherd.Client(address, timeout=10) as client:
        assert client.create_key("k", exportable=True).exportable
    assert servicer.created is not None and servicer.created.exportable


@pytest.fixture(scope="module")
def backup_file() -> bytes:
    servicer = _BackupServer()  # type: ignore[abstract]  # the backup calls only: the others stay UNIMPLEMENTED
    servicer.exportable = True
    response = servicer.BackupKey(
        admin.BackupKeyRequest(key_name="orders", recipient_public_key_pem=RECIPIENT[1].decode()),
        None,  # type: ignore[arg-type]
    )
    return response.backup_file


def _edited(file: bytes, **changes: object) -> bytes:
    header = admin.KeyBackupFile.FromString(file)
    for name, value in changes.items():
        if name == "flip":
            wrapped = bytearray(header.wrapped_key_backup)
            wrapped[int(value)] ^= 1  # type: ignore[call-overload]
            header.wrapped_key_backup = bytes(wrapped)
        elif name == "backup_time":
            header.backup_time.GetCurrentTime()
        else:
            setattr(header, name, value)
    return header.SerializeToString()


@pytest.mark.parametrize(
    ("name", "identity", "changes", "says"),
    [
        ("another recipient", STRANGER[2], {}, "made for another recipient key"),
        ("a flipped wrap byte", RECIPIENT[2], {"flip": -3}, "does not unwrap"),
        ("a flipped RSA byte", RECIPIENT[2], {"flip": 5}, "does not unwrap"),
        ("a renamed header", RECIPIENT[2], {"key_name": "payroll"}, "does not match"),
        ("a later header time", RECIPIENT[2], {"backup_time": None}, "does not match"),
    ],
)
def test_open_refuses_another_recipient_a_tampered_file_and_a_forged_header(
    backup_file: bytes, name: str, identity: bytes, changes: dict[str, object], says: str
) -> None:
    with pytest.raises(KeyBackupUnopenableError, match=says):
        open_key_backup(_edited(backup_file, **changes), identity)


def test_open_then_wipe(backup_file: bytes) -> None:
    with open_key_backup(backup_file, RECIPIENT[2]) as opened:
        assert opened.key.key_name == "orders" and MATERIAL in opened.key_backup
    assert opened.key_backup == bytearray(len(opened.key_backup))
    with pytest.raises(KeyBackupUnopenableError, match="format 1"):
        open_key_backup(b"not a backup", RECIPIENT[2])


@pytest.fixture(scope="module")
def second_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    server = start_server(tmp_path_factory.mktemp("restore-target"), [], grpc.insecure_channel)
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.server
def test_a_key_moves_to_another_server_where_its_data_decrypts(
    client: cipherd.Client, second_server: RunningServer, key_name: str
) -> None:
    """The real round trip: an exportable key under two versions backed up, restored into a second server (its
    own data dir, no plaintext import), where both versions' data decrypts; a second restore is refused."""
    client.create_key(key_name, exportable=True)
    first = client.encrypt(key_name, b"first")
    client.rotate_key(key_name)
    second = client.encrypt(key_name, b"second")
    backup = client.backup_key(key_name, RECIPIENT[1])
    with cipherd.Client(second_server.target, timeout=30) as other:
        restored = other.restore_key_backup(backup.file, RECIPIENT[2])
        assert (restored.current_version, restored.exportable) == (2, True)
        assert [other.decrypt(first), other.decrypt(second)] == [b"first", b"second"]
        with pytest.raises(cipherd.AlreadyExistsError):
            other.restore_key_backup(backup.file, RECIPIENT[2])
        with pytest.raises(KeyBackupUnopenableError):
            other.restore_key_backup(backup.file, STRANGER[2])

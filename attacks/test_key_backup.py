"""Key backup and restore (issue 33 item 3): what a caller can take out of a key, or put into another server,
through BackupKey, RestoreKey and the exportable flag.

Budgets, on two servers (a source and a target, each with its own key store and the same access policy):
- a caller without `export` (`admin`, `import` and `inspect` on every key; or `export` on other keys only) asks
  BackupKey for an exportable key, a key that is not exportable and a missing key, each with a good and a
  malformed recipient: one PERMISSION_DENIED per caller (code, reason, message apart from the key name), 0 bits
  about the key or the recipient. Positive control: the `export` caller gets the backup, KEY_NOT_EXPORTABLE and
  NOT_FOUND.
- a backup made for recipient A is useless to one who holds B: B's private key does not open it offline (the
  RSA-OAEP step fails, with Python's `cryptography`), and the file's wrapped blob sent as it is for an import job
  of the target is INVALID_ARGUMENT "the backup does not unwrap". Positive control: A opens it and restores it,
  and the source's ciphertexts decrypt on the target.
- a tampered backup: the KeyBackup re-wrapped for a job, one byte flipped anywhere (8 places, in the RSA-OAEP
  block and in the RFC 5649 wrap, each on its own job), and a well-wrapped blob that is not a KeyBackup: one
  answer for all, INVALID_ARGUMENT "the backup does not unwrap", each within 2 s; every job used up
  (IMPORT_JOB_UNUSABLE after); 0 keys made. A byte flipped in the file's blob does not open offline.
- RestoreKey names its key (key_name): a job made for another key than the one named is INVALID_ARGUMENT, the
  job left unused; named as the job's key, a backup of another key is IMPORT_JOB_UNUSABLE, the job used up; no
  name is INVALID_ARGUMENT "key_name is required"; no key under either name.
- a restore never overwrites: the target's own key of that name answers ALREADY_EXISTS (KEY_ALREADY_EXISTS),
  its versions unchanged and its own ciphertext still decrypting.
- the audit trail (both servers run with --audit-required) names what left and came in, never the material: the
  backup's record the recipient (sha256 of its SubjectPublicKeyInfo, as the file's header) and versions 1 and 2,
  the outsider's refused backup only the recipient it asked for; the restore's record the key, the job and the
  versions; no key material, wrapped blob, or the recipient's key in either trail (base64, url-safe base64 or hex
  of their first 24 bytes; a line of the PEM).
- the exportable flag cannot be cleared: no request field can say false (SetKeyExportableRequest has only
  key_name; UpdateKeyPolicyRequest and KeyPolicy have no such field; CreateKey of an existing name is
  ALREADY_EXISTS), and after SetKeyExportable twice, a rotation, a policy update and a disable, it is still set.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from answers import Answer, unary
from certs import Pem
from conftest import EVERY_KEY, fresh
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.keywrap import aes_key_unwrap_with_padding
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd import wrap_key_material
from cipherd.v1 import crypto_service_pb2 as crypto_pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

OWNER = Caller("owner", [Rule(EVERY_KEY, ["admin", "import", "export", "inspect", "encrypt", "decrypt"])])
ADMIN_ONLY = Caller("admin-only", [Rule(EVERY_KEY, ["admin", "import", "inspect"])])
STRANGER = Caller("stranger", [Rule(["elsewhere-*"], ["export", "admin"])])
DOES_NOT_UNWRAP = "the backup does not unwrap"
TRAIL = "audit.log"
OAEP = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)


def _serve(d: Path, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    policy = write_policy(d / "policy.yaml", [OWNER, ADMIN_ONLY, STRANGER])
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            # Each answer waits for its record: the trail read after a call holds it.
            "--audit-log",
            str(d / TRAIL),
            "--audit-required",
        ],
        ca=pki.pem,
    ) as target:
        yield target


@pytest.fixture(scope="module")
def dirs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The source's and the target's work folders, each with its audit trail (TRAIL)."""
    return {name: tmp_path_factory.mktemp(f"backup-{name}") for name in ("source", "target")}


@pytest.fixture(scope="module")
def source(dirs: dict[str, Path], pki: Pki, server_pem: Pem) -> Iterator[Target]:
    yield from _serve(dirs["source"], pki, server_pem)


@pytest.fixture(scope="module")
def target(dirs: dict[str, Path], pki: Pki, server_pem: Pem) -> Iterator[Target]:
    yield from _serve(dirs["target"], pki, server_pem)


@pytest.fixture(scope="module")
def recipient_a() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=3072)


@pytest.fixture(scope="module")
def recipient_b() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=3072)


def _pem(private_key: rsa.RSAPrivateKey) -> str:
    return (
        private_key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode("ascii")
    )


def _exportable_key(stubs: Stubs, prefix: str = "bk") -> tuple[str, str]:
    """A new exportable key on `stubs`' server and a ciphertext under it."""
    key = fresh(prefix)
    created = unary(stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=key, exportable=True), OWNER.metadata)
    assert created.ok, created.brief()
    encrypted = unary(
        stubs.crypto.Encrypt, crypto_pb.EncryptRequest(key_name=key, plaintext=b"old row"), OWNER.metadata
    )
    assert encrypted.ok, encrypted.brief()
    return key, encrypted.response.ciphertext


def _backup(stubs: Stubs, key: str, recipient_pem: str, caller: Caller = OWNER) -> Answer:
    return unary(
        stubs.admin.BackupKey,
        admin_pb.BackupKeyRequest(key_name=key, recipient_public_key_pem=recipient_pem),
        caller.metadata,
    )


def _file(answer: Answer) -> admin_pb.KeyBackupFile:
    assert answer.ok, answer.brief()
    backup_file = admin_pb.KeyBackupFile()
    backup_file.ParseFromString(answer.response.backup_file)
    return backup_file


def _open(private_key: rsa.RSAPrivateKey, wrapped: bytes) -> bytes:
    """The offline half of a restore: RSA-OAEP-SHA-256 then RFC 5649, with `cryptography`."""
    split = private_key.key_size // 8
    return aes_key_unwrap_with_padding(private_key.decrypt(wrapped[:split], OAEP), wrapped[split:])


def _job(stubs: Stubs, key: str) -> admin_pb.ImportJob:
    response = stubs.admin.CreateImportJob(
        admin_pb.CreateImportJobRequest(key_name=key), metadata=OWNER.metadata, timeout=30
    )
    job: admin_pb.ImportJob = response.import_job
    return job


def _restore(stubs: Stubs, key: str, job_id: str, blob: bytes, caller: Caller = OWNER) -> Answer:
    return unary(
        stubs.admin.RestoreKey,
        admin_pb.RestoreKeyRequest(key_name=key, import_job_id=job_id, wrapped_key_backup=blob),
        caller.metadata,
    )


def _records(trail: Path, method: str, key: str) -> list[dict[str, Any]]:
    """The call records of `method` naming `key` in the trail, oldest first."""
    lines = [json.loads(line) for line in trail.read_text().splitlines()]
    return [
        line
        for line in lines
        if line["type"] == "call"
        and line["method"] == f"cipherd.v1.KeyAdminService/{method}"
        and line.get("key") == key
    ]


def _get(stubs: Stubs, key: str) -> Answer:
    return unary(stubs.admin.GetKey, admin_pb.GetKeyRequest(key_name=key), OWNER.metadata)


def test_a_caller_without_export_learns_nothing(source: Target, recipient_a: rsa.RSAPrivateKey) -> None:
    with connect(source) as stubs:
        exportable, _ = _exportable_key(stubs)
        plain = fresh("bk")
        assert unary(stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=plain), OWNER.metadata).ok
        missing = fresh("bk")
        keys = {"exportable": exportable, "not-exportable": plain, "missing": missing}
        answers: dict[tuple[str, str, str], Answer] = {}
        for caller in (ADMIN_ONLY, STRANGER):
            for kind, key in keys.items():
                for recipient, pem in (("good", _pem(recipient_a)), ("malformed", "not a key")):
                    answers[(caller.name, kind, recipient)] = _backup(stubs, key, pem, caller)
        control = {kind: _backup(stubs, key, _pem(recipient_a)) for kind, key in keys.items()}
    for (name, kind, recipient), answer in answers.items():
        assert answer.code == grpc.StatusCode.PERMISSION_DENIED, f"{name} {kind} {recipient}: {answer.brief()}"
        assert not answer.response
    for name in (ADMIN_ONLY.name, STRANGER.name):
        shapes = {
            (
                a.code,
                a.reason,
                a.message.replace(keys[kind], "KEY"),
                tuple((k, v.replace(keys[kind], "KEY")) for k, v in a.error_metadata),
            )
            for (caller, kind, _), a in answers.items()
            if caller == name
        }
        assert len(shapes) == 1, shapes
    assert control["exportable"].ok, control["exportable"].brief()
    assert (control["not-exportable"].code, control["not-exportable"].reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "KEY_NOT_EXPORTABLE",
    )
    assert control["missing"].code == grpc.StatusCode.NOT_FOUND


def test_a_backup_for_one_recipient_is_useless_to_another(
    source: Target, target: Target, recipient_a: rsa.RSAPrivateKey, recipient_b: rsa.RSAPrivateKey
) -> None:
    with connect(source) as src:
        key, ciphertext = _exportable_key(src)
        backup_file = _file(_backup(src, key, _pem(recipient_a)))
    with pytest.raises(ValueError):
        _open(recipient_b, backup_file.wrapped_key_backup)
    with connect(target) as dst:
        as_is = _restore(dst, key, _job(dst, key).import_job_id, backup_file.wrapped_key_backup)
        assert not _get(dst, key).ok
        # Positive control: the right recipient opens it, and the source's data decrypts on the target.
        opened = _open(recipient_a, backup_file.wrapped_key_backup)
        job = _job(dst, key)
        restored = _restore(dst, key, job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        assert restored.ok, restored.brief()
        decrypted = unary(dst.crypto.Decrypt, crypto_pb.DecryptRequest(ciphertext=ciphertext), OWNER.metadata)
    assert (as_is.code, as_is.message) == (grpc.StatusCode.INVALID_ARGUMENT, DOES_NOT_UNWRAP), as_is.brief()
    assert decrypted.ok and decrypted.response.plaintext == b"old row", decrypted.brief()


def test_a_tampered_backup_gets_one_answer(source: Target, target: Target, recipient_a: rsa.RSAPrivateKey) -> None:
    with connect(source) as src:
        key, _ = _exportable_key(src)
        backup_file = _file(_backup(src, key, _pem(recipient_a)))
    tampered_file = bytearray(backup_file.wrapped_key_backup)
    tampered_file[len(tampered_file) - 9] ^= 0x40
    with pytest.raises(Exception):  # noqa: B017 - InvalidUnwrap or ValueError, whichever step notices
        _open(recipient_a, bytes(tampered_file))
    opened = _open(recipient_a, backup_file.wrapped_key_backup)
    answers: list[Answer] = []
    reused: list[Answer] = []
    with connect(target) as dst:
        for i in range(8):
            job = _job(dst, key)
            blob = bytearray(wrap_key_material(job.public_key_pem, opened))
            # 384 bytes of RSA-OAEP (a 3072-bit job), then the RFC 5649 wrap of the whole KeyBackup.
            position = (i * 47) % 384 if i < 4 else 384 + (i * 37) % (len(blob) - 384)
            blob[position] ^= 0x01 << (i % 8)
            answers.append(_restore(dst, key, job.import_job_id, bytes(blob)))
            reused.append(_restore(dst, key, job.import_job_id, wrap_key_material(job.public_key_pem, opened)))
        job = _job(dst, key)
        answers.append(
            _restore(dst, key, job.import_job_id, wrap_key_material(job.public_key_pem, b"not a backup" * 4))
        )
        made = _get(dst, key)
    shapes = {(a.code, a.reason, a.message) for a in answers}
    assert shapes == {(grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT", DOES_NOT_UNWRAP)}, shapes
    assert {(a.code, a.reason) for a in reused} == {(grpc.StatusCode.FAILED_PRECONDITION, "IMPORT_JOB_UNUSABLE")}
    assert made.code == grpc.StatusCode.NOT_FOUND, made.brief()
    slowest = max(a.seconds for a in answers)
    print(f"9 tampered backups: one answer, slowest {slowest:.3f} s")
    assert slowest < 2.0


def test_a_job_for_another_key_refuses(source: Target, target: Target, recipient_a: rsa.RSAPrivateKey) -> None:
    with connect(source) as src:
        key, _ = _exportable_key(src)
        opened = _open(recipient_a, _file(_backup(src, key, _pem(recipient_a))).wrapped_key_backup)
    other = fresh("bk")
    with connect(target) as dst:
        # Named as the backup's key, with a job for another: refused, the job left alone.
        job = _job(dst, other)
        mismatch = _restore(dst, key, job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        # Named as the job's key, with a backup of another: the job is used up.
        answer = _restore(dst, other, job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        again = _restore(dst, other, job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        # Unnamed: required, whatever the job.
        unnamed = _restore(dst, "", job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        made = [_get(dst, key), _get(dst, other)]
    assert (mismatch.code, mismatch.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_ARGUMENT"), mismatch.brief()
    assert "another key than key_name" in mismatch.message
    assert (answer.code, answer.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "IMPORT_JOB_UNUSABLE"), answer.brief()
    assert (again.code, again.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "IMPORT_JOB_UNUSABLE"), again.brief()
    assert unnamed.code == grpc.StatusCode.INVALID_ARGUMENT and unnamed.message.startswith("key_name is required")
    assert [m.code for m in made] == [grpc.StatusCode.NOT_FOUND] * 2


def test_a_restore_never_overwrites(source: Target, target: Target, recipient_a: rsa.RSAPrivateKey) -> None:
    with connect(source) as src:
        key, _ = _exportable_key(src)
        opened = _open(recipient_a, _file(_backup(src, key, _pem(recipient_a))).wrapped_key_backup)
    with connect(target) as dst:
        assert unary(dst.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=key), OWNER.metadata).ok
        own = unary(dst.crypto.Encrypt, crypto_pb.EncryptRequest(key_name=key, plaintext=b"mine"), OWNER.metadata)
        before = _get(dst, key).response.key
        job = _job(dst, key)
        answer = _restore(dst, key, job.import_job_id, wrap_key_material(job.public_key_pem, opened))
        after = _get(dst, key).response.key
        still = unary(dst.crypto.Decrypt, crypto_pb.DecryptRequest(ciphertext=own.response.ciphertext), OWNER.metadata)
    assert (answer.code, answer.reason) == (grpc.StatusCode.ALREADY_EXISTS, "KEY_ALREADY_EXISTS"), answer.brief()
    assert [v.create_time for v in after.versions] == [v.create_time for v in before.versions]
    assert not after.exportable
    assert still.ok and still.response.plaintext == b"mine"


def test_the_exportable_flag_cannot_be_cleared(source: Target) -> None:
    assert [f.name for f in admin_pb.SetKeyExportableRequest.DESCRIPTOR.fields] == ["key_name"]
    assert "exportable" not in admin_pb.UpdateKeyPolicyRequest.DESCRIPTOR.fields_by_name
    assert "exportable" not in keys_pb2.KeyPolicy.DESCRIPTOR.fields_by_name
    key = fresh("bk")
    with connect(source) as stubs:
        assert unary(stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=key), OWNER.metadata).ok
        marked = [
            unary(stubs.admin.SetKeyExportable, admin_pb.SetKeyExportableRequest(key_name=key), OWNER.metadata)
            for _ in range(2)
        ]
        again = unary(stubs.admin.CreateKey, admin_pb.CreateKeyRequest(key_name=key, exportable=False), OWNER.metadata)
        steps = [
            unary(stubs.admin.RotateKey, admin_pb.RotateKeyRequest(key_name=key), OWNER.metadata),
            unary(
                stubs.admin.UpdateKeyPolicy,
                admin_pb.UpdateKeyPolicyRequest(key_name=key, policy=keys_pb2.KeyPolicy()),
                OWNER.metadata,
            ),
            unary(stubs.admin.DisableKey, admin_pb.DisableKeyRequest(key_name=key), OWNER.metadata),
        ]
        after = _get(stubs, key)
    assert all(m.ok and m.response.key.exportable for m in marked), [m.brief() for m in marked]
    assert again.code == grpc.StatusCode.ALREADY_EXISTS
    assert all(s.ok for s in steps), [s.brief() for s in steps]
    assert after.response.key.exportable


def test_the_trail_names_recipient_job_and_versions_never_material(
    source: Target, target: Target, dirs: dict[str, Path], recipient_a: rsa.RSAPrivateKey
) -> None:
    with connect(source) as src:
        key, _ = _exportable_key(src)
        assert unary(src.admin.RotateKey, admin_pb.RotateKeyRequest(key_name=key), OWNER.metadata).ok
        backup_file = _file(_backup(src, key, _pem(recipient_a)))
        refused = _backup(src, key, _pem(recipient_a), STRANGER)
    opened = _open(recipient_a, backup_file.wrapped_key_backup)
    with connect(target) as dst:
        job = _job(dst, key)
        blob = wrap_key_material(job.public_key_pem, opened)
        outsider = _restore(dst, key, job.import_job_id, blob, STRANGER)
        restored = _restore(dst, key, job.import_job_id, blob)
    assert refused.code == outsider.code == grpc.StatusCode.PERMISSION_DENIED
    assert restored.ok, restored.brief()

    spki = recipient_a.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    recipient = "sha256:" + hashlib.sha256(spki).hexdigest()
    assert recipient == "sha256:" + backup_file.recipient_key_sha256.hex()
    asked = {"wrapping_algorithm": "RSA_AES_KEY_WRAP_SHA256_3072", "recipient": recipient}
    backups = _records(dirs["source"] / TRAIL, "BackupKey", key)
    assert [(r["status"], r["custody"]) for r in backups] == [
        ("OK", {**asked, "versions": [1, 2]}),
        ("PERMISSION_DENIED", asked),  # what the outsider asked, nothing of the key
    ], backups
    restores = _records(dirs["target"] / TRAIL, "RestoreKey", key)
    assert [(r["status"], r["custody"]) for r in restores] == [
        ("PERMISSION_DENIED", {"import_job_id": job.import_job_id}),
        ("OK", {"import_job_id": job.import_job_id, "versions": [1, 2]}),
    ], restores
    jobs = _records(dirs["target"] / TRAIL, "CreateImportJob", key)
    assert [r["custody"]["import_job_id"] for r in jobs] == [job.import_job_id]

    trails = (dirs["source"] / TRAIL).read_bytes() + (dirs["target"] / TRAIL).read_bytes()
    materials = [m.key_material for m in admin_pb.KeyBackup.FromString(opened).materials]
    assert len(materials) == 2
    for secret in [*materials, backup_file.wrapped_key_backup, blob, spki]:
        head = secret[:24]
        for shown in (base64.b64encode(head), base64.urlsafe_b64encode(head), head.hex().encode()):
            assert shown not in trails, "the trail holds key material, a wrapped blob or the recipient key"
    assert _pem(recipient_a).splitlines()[2].encode() not in trails

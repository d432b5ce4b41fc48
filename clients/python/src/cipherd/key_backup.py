"""Key backup and restore (docs/operating.md, "Back up and restore a key, step by step"): a backup file made by backup_key opened here
with the recipient's private key, checked, and wrapped again for an import job of the server that restores it
(restore_key_backup), so the key's material crosses no wire in the clear."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.keywrap import InvalidUnwrap, aes_key_unwrap_with_padding
from google.protobuf.message import DecodeError

from cipherd import _admin_convert
from cipherd.keys import Key
from cipherd.v1 import key_admin_service_pb2 as admin

__all__ = ["KeyBackupFile", "KeyBackupUnopenableError", "OpenedKeyBackup", "open_key_backup"]


class KeyBackupUnopenableError(ValueError):
    """A backup file this private key cannot open: made for another recipient, tampered with, or no backup."""


@dataclass(frozen=True)
class KeyBackupFile:
    """What backup_key answers: `file`, a serialized KeyBackupFile (write it to disk as it is; only the recipient's
    private key opens it), and `key`, the key as backed up."""

    file: bytes
    key: Key


@dataclass
class OpenedKeyBackup:
    """A backup file opened with its recipient's private key: `key` is the key it holds (versions and states, no
    material). It holds the material until wipe(); use it as a context manager to wipe on leaving."""

    key: Key
    key_backup: bytearray = field(repr=False)

    def wipe(self) -> None:
        """Zeroes the serialized KeyBackup this object holds (Python's immutable copies made on the way cannot be)."""
        self.key_backup[:] = bytes(len(self.key_backup))

    def __enter__(self) -> OpenedKeyBackup:
        return self

    def __exit__(self, *_: object) -> None:
        self.wipe()


def open_key_backup(file: bytes, identity_pem: bytes | str, password: bytes | None = None) -> OpenedKeyBackup:
    """Opens a backup file with `identity_pem`, the recipient's RSA private key (PEM, as openssl genpkey writes
    it). Refuses, with KeyBackupUnopenableError, a file made for another public key, one that does not unwrap
    (tampered with), and one whose clear header does not match the KeyBackup inside it."""
    pem = identity_pem.encode("ascii") if isinstance(identity_pem, str) else identity_pem
    private_key = serialization.load_pem_private_key(pem, password=password)
    if not isinstance(private_key, rsa.RSAPrivateKey):
        raise ValueError("the identity is not an RSA private key")
    header = admin.KeyBackupFile()
    try:
        header.ParseFromString(file)
    except DecodeError:
        header.Clear()
    if header.format != 1:
        raise KeyBackupUnopenableError("not a key backup file of format 1")
    spki = private_key.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    recipient = hashlib.sha256(spki).digest()
    if not hmac.compare_digest(header.recipient_key_sha256, recipient):
        raise KeyBackupUnopenableError(
            f"the backup of key {header.key_name!r} was made for another recipient key "
            f"(SHA-256 {header.recipient_key_sha256.hex()}, this key's is {recipient.hex()})"
        )
    size = private_key.key_size // 8
    wrapped = header.wrapped_key_backup
    oaep = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    try:
        ephemeral = private_key.decrypt(wrapped[:size], oaep)
        inner = bytearray(aes_key_unwrap_with_padding(ephemeral, wrapped[size:]))
    except (ValueError, InvalidUnwrap):
        raise KeyBackupUnopenableError(
            f"the backup of key {header.key_name!r} does not unwrap: it was tampered with or made for another recipient"
        ) from None
    backup = admin.KeyBackup()
    try:
        backup.ParseFromString(bytes(inner))
    except DecodeError:
        inner[:] = bytes(len(inner))
        raise KeyBackupUnopenableError(f"the backup of key {header.key_name!r} unwraps to no KeyBackup") from None
    if (
        backup.key.key_name != header.key_name
        or backup.recipient_key_sha256 != header.recipient_key_sha256
        or backup.backup_time != header.backup_time
    ):
        inner[:] = bytes(len(inner))
        raise KeyBackupUnopenableError(
            f"the backup file's header (key {header.key_name!r}) does not match the backup inside it"
        )
    key = _admin_convert.key_from_proto(backup.key)
    backup.Clear()
    return OpenedKeyBackup(key, inner)

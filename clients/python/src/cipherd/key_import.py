"""Wrapped key import (proto/README.md, "Importing wrapped key material"): an import job's public key, and
key material wrapped for it on this side, as AWS KMS, Cloud KMS and Vault take keys, so the material never
crosses the wire in the clear."""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.hazmat.primitives.keywrap import aes_key_wrap_with_padding

__all__ = ["ImportJob", "ImportWrappingAlgorithm", "wrap_key_material"]


class ImportWrappingAlgorithm(Enum):
    """How material is wrapped for a job: CKM_RSA_AES_KEY_WRAP (RSA-OAEP-SHA-256 of an AES-256 key, then RFC 5649
    key wrap with padding), for a job key of 3072 or 4096 bits."""

    RSA_AES_KEY_WRAP_SHA256_3072 = "rsa_aes_key_wrap_sha256_3072"
    RSA_AES_KEY_WRAP_SHA256_4096 = "rsa_aes_key_wrap_sha256_4096"


@dataclass(frozen=True)
class ImportJob:
    """A one-time permission to import one version of `key_name`, wrapped for `public_key_pem`, until
    `expire_time`. It lives on the server replica that made it: import on the same connection."""

    import_job_id: str
    key_name: str
    wrapping_algorithm: ImportWrappingAlgorithm
    public_key_pem: str
    expire_time: datetime


def wrap_key_material(public_key_pem: str | bytes, key_material: bytes) -> bytes:
    """`key_material` wrapped for an import job's public key: the RSA-OAEP (SHA-256, MGF1 SHA-256, no label)
    encryption of a fresh AES-256 key, followed by the RFC 5649 wrap of the material under it (Cloud KMS's
    recipe, with `cryptography`)."""
    pem = public_key_pem.encode("ascii") if isinstance(public_key_pem, str) else public_key_pem
    public_key = serialization.load_pem_public_key(pem)
    if not isinstance(public_key, rsa.RSAPublicKey):
        raise ValueError("an import job's public key is RSA")
    ephemeral = os.urandom(32)
    oaep = padding.OAEP(mgf=padding.MGF1(algorithm=hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
    return public_key.encrypt(ephemeral, oaep) + aes_key_wrap_with_padding(ephemeral, key_material)

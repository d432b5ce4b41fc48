"""Request bodies for the side-by-side: cipherd's messages from the real protos, framed for h2load (echo
gets the very same files), and Vault Transit's JSON counterparts."""

import base64
import json
import struct

from .protos import pb


def frame(message: bytes) -> bytes:
    """A gRPC length-prefixed message: 1 byte compressed flag (0), 4-byte big-endian length, the bytes."""
    return b"\x00" + struct.pack(">I", len(message)) + message


def frames(messages: list[bytes]) -> bytes:
    """The HTTP/2 body of one call: every message framed, back to back (one for a unary call)."""
    return b"".join(frame(m) for m in messages)


def unframe_all(body: bytes) -> list[bytes]:
    """The messages of a body made by `frames`; ValueError unless it is exactly uncompressed messages."""
    out, at = [], 0
    while at < len(body):
        if len(body) - at < 5 or body[at] != 0:
            raise ValueError("not uncompressed gRPC messages")
        size = struct.unpack(">I", body[at + 1 : at + 5])[0]
        if at + 5 + size > len(body):
            raise ValueError("a gRPC message runs past the body")
        out.append(body[at + 5 : at + 5 + size])
        at += 5 + size
    return out


def encrypt(key_name: str, plaintext: bytes) -> bytes:
    cs = pb()[0]
    return cs.EncryptRequest(key_name=key_name, plaintext=plaintext).SerializeToString()


def encrypt_batch(key_name: str, plaintext: bytes, n: int) -> bytes:
    cs = pb()[0]
    items = [cs.EncryptBatchItem(reference=str(i), plaintext=plaintext) for i in range(n)]
    return cs.EncryptBatchRequest(key_name=key_name, items=items).SerializeToString()


def encrypt_subject(key_name: str, plaintext: bytes, subject: str) -> bytes:
    """An Encrypt sealed under `subject`'s key."""
    cs = pb()[0]
    return cs.EncryptRequest(key_name=key_name, plaintext=plaintext, subject=subject).SerializeToString()


def encrypt_batch_subjects(key_name: str, plaintext: bytes, subjects: list[str]) -> bytes:
    """An EncryptBatch with one item per subject, each sealed under its subject's key."""
    cs = pb()[0]
    items = [cs.EncryptBatchItem(reference=str(i), plaintext=plaintext, subject=s) for i, s in enumerate(subjects)]
    return cs.EncryptBatchRequest(key_name=key_name, items=items).SerializeToString()


def decrypt_batch(ciphertext: str, n: int) -> bytes:
    return decrypt_batch_of([ciphertext] * n)


def decrypt_batch_of(ciphertexts: list[str]) -> bytes:
    """A DecryptBatch with one item per ciphertext."""
    cs = pb()[0]
    items = [cs.DecryptBatchItem(reference=str(i), ciphertext=c) for i, c in enumerate(ciphertexts)]
    return cs.DecryptBatchRequest(items=items).SerializeToString()


def decrypt(ciphertext: str) -> bytes:
    cs = pb()[0]
    return cs.DecryptRequest(ciphertext=ciphertext).SerializeToString()


def reencrypt_batch(key_name: str, ciphertext: str, n: int) -> bytes:
    cs = pb()[0]
    items = [cs.ReEncryptBatchItem(reference=str(i), ciphertext=ciphertext) for i in range(n)]
    return cs.ReEncryptBatchRequest(key_name=key_name, items=items).SerializeToString()


def reencrypt_stream(key_name: str, ciphertext: str, n: int) -> list[bytes]:
    """The n messages one ReEncryptStream call sends (h2load sends them all as one body)."""
    cs = pb()[0]
    return [
        cs.ReEncryptStreamRequest(reference=str(i), ciphertext=ciphertext, key_name=key_name).SerializeToString()
        for i in range(n)
    ]


def vault_encrypt(plaintext: bytes) -> bytes:
    return json.dumps({"plaintext": base64.b64encode(plaintext).decode()}).encode()


def vault_encrypt_batch(plaintext: bytes, n: int) -> bytes:
    b64 = base64.b64encode(plaintext).decode()
    return json.dumps({"batch_input": [{"plaintext": b64} for _ in range(n)]}).encode()


def vault_ciphertext_batch(ciphertext: str, n: int) -> bytes:
    """The batch_input of Transit's decrypt and rewrap: n copies of one ciphertext."""
    return json.dumps({"batch_input": [{"ciphertext": ciphertext} for _ in range(n)]}).encode()

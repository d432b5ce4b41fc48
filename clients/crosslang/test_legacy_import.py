"""Legacy ciphertexts made here with Python's `cryptography` (a second source beside the Java tests' OpenSSL
CLI, and the only one for AES-GCM, which `openssl enc` refuses), imported into the real server with
ImportKey's legacy fields and rewrapped into a cipherd key, then decrypted back through the Python client.
The conventions are proto/README.md's "Legacy ciphertexts". The Python client has no legacy calls, so the
generated stubs are used directly. Run by `make test-crosslang` with the Python client's venv."""

from __future__ import annotations

import base64
import hashlib
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import cast

import grpc
import pytest
from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4, Blowfish, TripleDES
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, CipherAlgorithm, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from google.rpc.error_details_pb2 import ErrorInfo
from grpc_status import rpc_status

import cipherd
from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import crypto_service_pb2_grpc, key_admin_service_pb2_grpc, keys_pb2
from cipherd.v1 import key_admin_service_pb2 as admin
from server import RunningServer, start_server

# Not ASCII, longer than two AES blocks, with a NUL.
PLAINTEXT = "Zoë Müller, Zürich\u00a0\U0001f512 born 1970".encode() + bytes([0, 255])
TARGET = "modern"
PREPENDED, SEPARATE, FIXED, UNSPECIFIED = (
    keys_pb2.LEGACY_IV_PREPENDED,
    keys_pb2.LEGACY_IV_SEPARATE,
    keys_pb2.LEGACY_IV_FIXED,
    keys_pb2.LEGACY_IV_UNSPECIFIED,
)


@dataclass
class Stubs:
    crypto: crypto_service_pb2_grpc.CryptoServiceStub
    admin: key_admin_service_pb2_grpc.KeyAdminServiceStub
    client: cipherd.Client


@pytest.fixture(scope="module")
def stubs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stubs]:
    # The legacy fields are sent with key_material in the clear, as before wrapped import.
    running: RunningServer = start_server(
        tmp_path_factory.mktemp("legacy"), ["--allow-plaintext-key-import"], grpc.insecure_channel
    )
    try:
        with grpc.insecure_channel(running.target) as channel, cipherd.Client(running.target) as client:
            client.create_key(TARGET)
            yield Stubs(
                crypto_service_pb2_grpc.CryptoServiceStub(channel),
                key_admin_service_pb2_grpc.KeyAdminServiceStub(channel),
                client,
            )
    finally:
        running.stop()


def derived(label: str, length: int) -> bytes:
    """`length` fixed bytes from `label`, so a wrong key fails the same way every run."""
    out = b"".join(hashlib.sha256(f"{label}#{i}".encode()).digest() for i in range(length // 32 + 1))
    return out[:length]


def import_legacy(
    stubs: Stubs,
    cipher: int,
    *,
    key: bytes = b"",
    passphrase: bytes = b"",
    iv: int = UNSPECIFIED,
    fixed_iv: bytes = b"",
) -> str:
    """A fresh legacy key with one version; its name."""
    name = f"legacy-{uuid.uuid4().hex[:12]}"
    stubs.admin.ImportKey(
        admin.ImportKeyRequest(
            key_name=name,
            legacy_cipher=cipher,
            legacy_iv=iv,  # type: ignore[arg-type]
            legacy_fixed_iv=fixed_iv,
            key_material=key,
            passphrase=passphrase,
        )
    )
    return name


def rewrap(stubs: Stubs, legacy: pb.LegacyCiphertext, context: bytes = b"") -> str:
    response = stubs.crypto.ReEncrypt(pb.ReEncryptRequest(legacy=legacy, key_name=TARGET, context=context))
    assert response.ciphertext.startswith(f"<{TARGET}/v1:gcm>")
    assert response.source_key_version == 1
    return response.ciphertext


def error_info_reason(error: grpc.RpcError) -> str:
    """The reason of the cipherd.io ErrorInfo in a failed call's status details, read here from the wire
    rather than through the Python client's mapping; "" when there is none."""
    status = rpc_status.from_call(cast(grpc.Call, error))
    info = ErrorInfo()
    for detail in status.details if status is not None else ():
        if detail.Unpack(info) and info.domain == "cipherd.io":
            return str(info.reason)
    return ""


def pkcs7(data: bytes, block_bits: int) -> bytes:
    padder = padding.PKCS7(block_bits).padder()
    return padder.update(data) + padder.finalize()


def encrypt_block_mode(algorithm: CipherAlgorithm, mode: modes.Mode | None, plaintext: bytes, padded: bool) -> bytes:
    body = pkcs7(plaintext, algorithm.block_size) if padded else plaintext
    encryptor = Cipher(algorithm, mode).encryptor()
    return encryptor.update(body) + encryptor.finalize()


def rc4_textbook(key: bytes, data: bytes) -> bytes:
    """RC4 as published, for keys longer than `cryptography`'s ARC4 takes (it stops at 32 bytes)."""
    s, j = list(range(256)), 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) & 0xFF
        s[i], s[j] = s[j], s[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) & 0xFF
        j = (j + s[i]) & 0xFF
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) & 0xFF])
    return bytes(out)


def item(key_name: str, data: bytes, form: str, iv: bytes = b"") -> pb.LegacyCiphertext:
    """The ciphertext as a column would hold it: raw bytes, upper- or lowercase hex, or base64 with or without padding."""
    if form == "raw":
        return pb.LegacyCiphertext(key_name=key_name, raw=data, iv=iv)
    if form in ("HEX", "hex"):
        return pb.LegacyCiphertext(key_name=key_name, hex=data.hex().upper() if form == "HEX" else data.hex(), iv=iv)
    text = base64.b64encode(data).decode()
    return pb.LegacyCiphertext(key_name=key_name, base64=text if form == "base64" else text.rstrip("="), iv=iv)


FORMS = ("raw", "HEX", "hex", "base64", "base64-unpadded")


# --- MySQL: AES_ENCRYPT in aes-128-ecb with the key string folded into 16 bytes ---


def mysql_fold(key_string: bytes) -> bytes:
    key = bytearray(16)
    for i, byte in enumerate(key_string):
        key[i % 16] ^= byte
    return bytes(key)


def test_mysqlKnownAnswer_andALongKeyStringFoldedHere_rewrapAndDecrypt(stubs: Stubs) -> None:
    known = import_legacy(stubs, keys_pb2.LEGACY_CIPHER_MYSQL_AES_ECB, passphrase=b"1234567890")
    key_string = "a MySQL key string well over sixteen bytes, ünïcödé".encode()
    folded = import_legacy(stubs, keys_pb2.LEGACY_CIPHER_MYSQL_AES_ECB, passphrase=key_string)
    column = encrypt_block_mode(algorithms.AES(mysql_fold(key_string)), modes.ECB(), PLAINTEXT, padded=True)

    hello = rewrap(stubs, item(known, bytes.fromhex("FF06A56B4E88C828A010E9BD0CE70A89"), "HEX"))
    ours = rewrap(stubs, item(folded, column, "HEX"), context=b"users.bio")

    assert stubs.client.decrypt(hello) == b"HELLO"
    assert stubs.client.decrypt(ours, context=b"users.bio") == PLAINTEXT


# --- AES in every mode and key size, each IV convention ---

AES_MODES = {
    keys_pb2.LEGACY_CIPHER_AES_CBC: ("cbc", 16),
    keys_pb2.LEGACY_CIPHER_AES_ECB: ("ecb", 0),
    keys_pb2.LEGACY_CIPHER_AES_CTR: ("ctr", 16),
    keys_pb2.LEGACY_CIPHER_AES_CFB: ("cfb", 16),
    keys_pb2.LEGACY_CIPHER_AES_OFB: ("ofb", 16),
    keys_pb2.LEGACY_CIPHER_AES_GCM: ("gcm", 12),
}


def aes_encrypt(name: str, key: bytes, iv: bytes, plaintext: bytes) -> bytes:
    if name == "gcm":
        return AESGCM(key).encrypt(iv, plaintext, None)  # nonce, then ciphertext with the tag after it
    mode: modes.Mode = {
        "cbc": lambda: modes.CBC(iv),
        "ecb": modes.ECB,
        "ctr": lambda: modes.CTR(iv),
        "cfb": lambda: modes.CFB(iv),
        "ofb": lambda: modes.OFB(iv),
    }[name]()
    return encrypt_block_mode(algorithms.AES(key), mode, plaintext, padded=name in ("cbc", "ecb"))


AES_CASES = [
    pytest.param(
        cipher, name, iv_length, bits, convention, id=f"aes-{bits}-{name}-{keys_pb2.LegacyIv.Name(convention)}"
    )
    for cipher, (name, iv_length) in AES_MODES.items()
    for bits in (128, 192, 256)
    for convention in ((PREPENDED, SEPARATE, FIXED) if iv_length else (UNSPECIFIED,))
]


@pytest.mark.parametrize(("cipher", "name", "iv_length", "bits", "convention"), AES_CASES)
def test_aesCiphertext_fromCryptography_rewrapsAndDecrypts(
    stubs: Stubs, cipher: int, name: str, iv_length: int, bits: int, convention: int
) -> None:
    key, iv = derived(f"aes {name} {bits}", bits // 8), derived(f"iv {name}", iv_length)
    legacy_key = import_legacy(stubs, cipher, key=key, iv=convention, fixed_iv=iv if convention == FIXED else b"")

    for n, plaintext in enumerate((PLAINTEXT, b"", b"x")):
        body = aes_encrypt(name, key, iv, plaintext)
        data = iv + body if convention == PREPENDED else body
        legacy = item(legacy_key, data, FORMS[(n + bits) % len(FORMS)], iv if convention == SEPARATE else b"")

        assert stubs.client.decrypt(rewrap(stubs, legacy, b"ctx"), context=b"ctx") == plaintext


def test_aesGcm_aTamperedTagOrAWrongKey_failsAsDecryptionFailed(stubs: Stubs) -> None:
    key, nonce = derived("gcm tamper", 32), derived("gcm nonce", 12)
    right = import_legacy(stubs, keys_pb2.LEGACY_CIPHER_AES_GCM, key=key)
    wrong = import_legacy(stubs, keys_pb2.LEGACY_CIPHER_AES_GCM, key=derived("another gcm key", 32))
    data = nonce + AESGCM(key).encrypt(nonce, PLAINTEXT, None)
    tampered = data[:-1] + bytes([data[-1] ^ 1])

    for legacy in (item(right, tampered, "raw"), item(wrong, data, "raw"), item(right, data[:20], "raw")):
        with pytest.raises(grpc.RpcError) as failed:
            rewrap(stubs, legacy)
        assert failed.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # type: ignore[attr-defined]
        assert error_info_reason(failed.value) == "DECRYPTION_FAILED"
        # Not how the error is recognised (that is the reason above): the message must add nothing to the
        # kind, so that a tampered tag, a wrong key and a cut-short body cannot be told apart.
        assert failed.value.details() == "decryption failed"  # type: ignore[attr-defined]


# --- DES, 3DES, Blowfish and RC4 from cryptography.hazmat.decrepit ---


@dataclass(frozen=True)
class Decrepit:
    cipher: int
    key_length: int
    algorithm: str

    def encrypt(self, key: bytes, iv: bytes, plaintext: bytes) -> bytes:
        if self.algorithm == "rc4-textbook":
            return rc4_textbook(key, plaintext)
        if self.algorithm == "rc4":
            return encrypt_block_mode(ARC4(key), None, plaintext, padded=False)
        # TripleDES with an 8-byte key is single DES (K1 = K2 = K3); with 16 bytes it is two-key 3DES.
        algorithm: CipherAlgorithm = Blowfish(key) if self.algorithm == "blowfish" else TripleDES(key)
        return encrypt_block_mode(algorithm, modes.CBC(iv), plaintext, padded=True)


DECREPIT = [
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_DES_CBC, 8, "des"), id="des-cbc"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_DESEDE_CBC, 16, "des"), id="3des-two-key-cbc"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_DESEDE_CBC, 24, "des"), id="3des-three-key-cbc"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_BLOWFISH_CBC, 4, "blowfish"), id="blowfish-32-bit"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_BLOWFISH_CBC, 23, "blowfish"), id="blowfish-184-bit"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_BLOWFISH_CBC, 56, "blowfish"), id="blowfish-448-bit"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_RC4, 5, "rc4"), id="rc4-40-bit"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_RC4, 32, "rc4"), id="rc4-256-bit"),
    pytest.param(Decrepit(keys_pb2.LEGACY_CIPHER_RC4, 256, "rc4-textbook"), id="rc4-2048-bit"),
]


@pytest.mark.parametrize("spec", DECREPIT)
def test_decrepitCiphertext_fromCryptography_rewrapsAndDecrypts(stubs: Stubs, spec: Decrepit) -> None:
    key = derived(f"{spec.algorithm} {spec.key_length}", spec.key_length)
    iv_length = 0 if spec.cipher == keys_pb2.LEGACY_CIPHER_RC4 else 8
    iv = derived(f"iv {spec.algorithm}", iv_length)
    for convention in (PREPENDED, SEPARATE, FIXED) if iv_length else (UNSPECIFIED,):
        legacy_key = import_legacy(
            stubs, spec.cipher, key=key, iv=convention, fixed_iv=iv if convention == FIXED else b""
        )
        for n, plaintext in enumerate((PLAINTEXT, b"")):
            body = spec.encrypt(key, iv, plaintext)
            data = iv + body if convention == PREPENDED else body
            legacy = item(legacy_key, data, FORMS[(n + convention) % len(FORMS)], iv if convention == SEPARATE else b"")

            assert stubs.client.decrypt(rewrap(stubs, legacy)) == plaintext, keys_pb2.LegacyIv.Name(convention)


# --- a table column through one ReEncryptStream ---


def test_aTableColumn_rewrapsThroughOneStream_andOnlyTheBrokenRowFails(stubs: Stubs) -> None:
    key = derived("column key", 32)
    legacy_key = import_legacy(stubs, keys_pb2.LEGACY_CIPHER_AES_CBC, key=key, iv=PREPENDED)
    rows: dict[str, tuple[bytes, str]] = {}
    for row_id in range(1, 301):
        plaintext = f"customer {row_id}: Zoë {row_id * 7919}".encode()
        iv = derived(f"row iv {row_id}", 16)
        stored = base64.b64encode(iv + encrypt_block_mode(algorithms.AES(key), modes.CBC(iv), plaintext, True)).decode()
        rows[f"customers/{row_id}"] = (plaintext, stored)
    broken = "customers/137"
    plaintext_137, stored_137 = rows[broken]
    raw_137 = base64.b64decode(stored_137)
    rows[broken] = (plaintext_137, base64.b64encode(raw_137[:-1]).decode())  # cut short: not whole blocks

    def requests() -> Iterator[pb.ReEncryptStreamRequest]:
        for reference, (_, stored) in rows.items():
            yield pb.ReEncryptStreamRequest(
                reference=reference,
                key_name=TARGET,
                context=f"customers.name:{reference}".encode(),
                legacy=pb.LegacyCiphertext(key_name=legacy_key, base64=stored),
            )

    results = [response.result for response in stubs.crypto.ReEncryptStream(requests(), timeout=120)]

    assert [r.reference for r in results] == list(rows)
    for result in results:
        if result.reference == broken:
            assert result.WhichOneof("outcome") == "error"
            assert result.error.code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
            assert result.error.reason == "DECRYPTION_FAILED"
            # Not how the error is recognised (that is the reason): the message adds nothing to the kind.
            assert result.error.message == "decryption failed"
            continue
        assert result.WhichOneof("outcome") == "ciphertext", result.error.message
        assert result.source_key_version == 1 and result.key_version == 1
        context = f"customers.name:{result.reference}".encode()
        assert stubs.client.decrypt(result.ciphertext, context=context) == rows[result.reference][0]

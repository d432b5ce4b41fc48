"""Checks the server's xgcm, siv and hmac against independent implementations built here from Python's
`cryptography` and the standard library, through the real server: keys of known bytes go in with
ImportKey, and ciphertexts and indexes made on either side must match or open on the other. The specs
are proto/README.md's sections on `xgcm`, `siv` and "Blind indexes". Run by `make test-crosslang` with
the Python client's venv (its tests/server.py starts the jar)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import unicodedata
import uuid
from collections.abc import Iterator

import grpc
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESSIV

import cipherd
from cipherd import Normalization
from server import start_server

XGCM_KEY = hashlib.sha256(b"cipherd independent xgcm key").digest()
SIV_KEY = hashlib.sha512(b"cipherd independent siv key").digest()
HMAC_KEY = hashlib.sha256(b"cipherd independent hmac key").digest()
# Not ASCII, not UTF-8 text, and with a NUL.
PLAINTEXT = "Zürich\u00a0\U0001f512".encode() + bytes([0, 255, 10])


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[cipherd.Client]:
    running = start_server(tmp_path_factory.mktemp("independent"), [], grpc.insecure_channel)
    try:
        with cipherd.Client(running.target) as c:
            yield c
    finally:
        running.stop()


def imported(client: cipherd.Client, prefix: str, key: bytes, mode: str) -> tuple[str, str]:
    """A fresh key whose only version holds `key`: its name and the header its ciphertexts carry."""
    name = f"{prefix}-{uuid.uuid4().hex[:12]}"
    version = client.import_key_wrapped(name, key, mode=mode).current_version
    return name, f"<{name}/v{version}:{mode}>"


# --- xgcm: XAES-256-GCM (c2sp.org/XAES-256-GCM), derived here from AES-ECB and AESGCM ---


def xaes_gcm(key: bytes, nonce: bytes) -> tuple[AESGCM, bytes]:
    """The AES-256-GCM instance and 12-byte nonce that XAES-256-GCM uses for `key` and a 24-byte `nonce`."""
    assert len(key) == 32 and len(nonce) == 24
    aes = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    l_value = int.from_bytes(aes.update(bytes(16)), "big")
    k1 = ((l_value << 1) & ((1 << 128) - 1)) ^ (0x87 if l_value >> 127 else 0)
    m1 = int.from_bytes(b"\x00\x01X\x00" + nonce[:12], "big")
    m2 = int.from_bytes(b"\x00\x02X\x00" + nonce[:12], "big")
    derived = aes.update((m1 ^ k1).to_bytes(16, "big")) + aes.update((m2 ^ k1).to_bytes(16, "big"))
    return AESGCM(derived), nonce[12:]


def xaes_seal(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
    gcm, short_nonce = xaes_gcm(key, nonce)
    return gcm.encrypt(short_nonce, plaintext, aad)


@pytest.mark.parametrize(
    ("key_byte", "aad", "expected"),
    [
        pytest.param(0x01, b"", "ce546ef63c9cc60765923609b33a9a1974e96e52daf2fcf7075e2271", id="no-aad"),
        pytest.param(
            0x03, b"c2sp.org/XAES-256-GCM", "986ec1832593df5443a179437fd083bf3fdb41abd740a21f71eb769d", id="with-aad"
        ),
    ],
)
def test_theXaesDerivationHere_reproducesTheC2spKnownAnswers(key_byte: int, aad: bytes, expected: str) -> None:
    key, nonce = bytes([key_byte]) * 32, b"ABCDEFGHIJKLMNOPQRSTUVWX"

    sealed = xaes_seal(key, nonce, b"XAES-256-GCM", aad)

    assert sealed.hex() == expected
    gcm, short_nonce = xaes_gcm(key, nonce)
    assert gcm.decrypt(short_nonce, sealed, aad) == b"XAES-256-GCM"


def test_xgcmCiphertextsMadeHere_decryptOnTheServer(client: cipherd.Client) -> None:
    _, header = imported(client, "xgcm", XGCM_KEY, "xgcm")
    for context in (b"", b"row-7"):
        nonce = os.urandom(24)
        payload = nonce + xaes_seal(XGCM_KEY, nonce, PLAINTEXT, header.encode("ascii") + context)
        ciphertext = header + base64.b64encode(payload).decode("ascii")

        assert client.decrypt(ciphertext, context=context) == PLAINTEXT
        with pytest.raises(cipherd.DecryptionFailedError):
            client.decrypt(ciphertext, context=context + b"x")


def test_xgcmCiphertextsOfTheServer_decryptHere(client: cipherd.Client) -> None:
    name, header = imported(client, "xgcm", XGCM_KEY, "xgcm")
    nonces = set()
    for plaintext in (b"", PLAINTEXT, os.urandom(1000)):
        ciphertext = client.encrypt(name, plaintext, context=b"ctx")
        assert ciphertext.startswith(header)
        payload = cipherd.parse_ciphertext(ciphertext).payload
        gcm, short_nonce = xaes_gcm(XGCM_KEY, payload[:24])

        assert gcm.decrypt(short_nonce, payload[24:], header.encode("ascii") + b"ctx") == plaintext
        nonces.add(payload[:24])
    assert len(nonces) == 3, "xgcm must draw a fresh nonce per encryption"


# --- siv: AES-SIV (RFC 5297) from cryptography's AESSIV ---


def test_theAesSivHere_reproducesRfc5297A1() -> None:
    key = bytes.fromhex("fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff")
    aad = bytes.fromhex("101112131415161718191a1b1c1d1e1f2021222324252627")

    sealed = AESSIV(key).encrypt(bytes.fromhex("112233445566778899aabbccddee"), [aad])

    assert sealed.hex() == "85632d07c6e8f37f950acd320a2ecc9340c02b9690c4dc04daef7f6afe5c"


def siv_ciphertext(header: str, plaintext: bytes, context: bytes) -> str:
    sealed = AESSIV(SIV_KEY).encrypt(plaintext, [header.encode("ascii") + context])
    return header + base64.b64encode(sealed).decode("ascii")


@pytest.mark.parametrize(
    "plaintext",
    [b"", b"alice@example.com", PLAINTEXT, bytes(range(256)) * 3],
    ids=["empty", "ascii", "binary", "768-bytes"],
)
def test_sivCiphertextsOfTheServer_equalTheOnesMadeHere(client: cipherd.Client, plaintext: bytes) -> None:
    name, header = imported(client, "siv", SIV_KEY, "siv")
    for context in (b"", b"users.email"):
        expected = siv_ciphertext(header, plaintext, context)

        assert client.encrypt(name, plaintext, context=context) == expected
        assert client.encrypt(name, plaintext, context=context) == expected


def test_sivCiphertextsMadeHere_decryptOnTheServer_onlyWithTheirContext(client: cipherd.Client) -> None:
    _, header = imported(client, "siv", SIV_KEY, "siv")
    ciphertext = siv_ciphertext(header, PLAINTEXT, b"users.email")

    assert client.decrypt(ciphertext, context=b"users.email") == PLAINTEXT
    with pytest.raises(cipherd.DecryptionFailedError) as raised:
        client.decrypt(ciphertext, context=b"users.phone")
    assert raised.value.reason == "DECRYPTION_FAILED"
    # Not how the error is recognised (that is the reason above): the server's message must add nothing
    # to the kind of error, not even which of context, key or tag was wrong.
    assert raised.value.details == "decryption failed"


# --- hmac: blind indexes, normalized here with unicodedata and str.casefold ---

# Unicode's White_Space property (PropList.txt), which neither str.strip() (it also strips U+001C..U+001F)
# nor Java's Character.isWhitespace (it keeps U+00A0, U+2007 and U+202F) follows exactly.
WHITE_SPACE = "".join(
    map(
        chr,
        [*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F, 0x3000],
    )
)


def normalize(value: str, n: Normalization) -> str:
    if n.trim:
        value = value.strip(WHITE_SPACE)
    if n.nfkc:
        value = unicodedata.normalize("NFKC", value)
    if n.casefold:
        value = value.casefold()
    return value


def expected_index(value: bytes | str, n: Normalization | None, length: int) -> bytes:
    data = value if isinstance(value, bytes) else normalize(value, n or Normalization()).encode("utf-8")
    return hmac.new(HMAC_KEY, data, hashlib.sha256).digest()[: length or 32]


@pytest.fixture(scope="module")
def index_key(client: cipherd.Client) -> str:
    return imported(client, "idx", HMAC_KEY, "hmac")[0]


ALL = Normalization(trim=True, nfkc=True, casefold=True)
CASEFOLD = Normalization(casefold=True)
NFKC = Normalization(nfkc=True)
TRIM = Normalization(trim=True)
# (value, normalization, a value it must index equal to): equal by Unicode's definitions, and both
# indexes must equal the one computed here.
TRICKY = [
    pytest.param("Straße", CASEFOLD, "STRASSE", id="casefold-sharp-s"),
    pytest.param("ΣΊΣΥΦΟΣ", CASEFOLD, "σίσυφοσ", id="casefold-final-sigma"),
    pytest.param("İstanbul", CASEFOLD, "i\u0307stanbul", id="casefold-full-dotted-I"),  # status F keeps the dot
    pytest.param("ＡＢＣ１２３", NFKC, "ABC123", id="nfkc-full-width"),
    pytest.param("\ufb01le", NFKC, "file", id="nfkc-fi-ligature"),
    pytest.param("ｶﾞ", NFKC, "ガ", id="nfkc-half-width-katakana"),
    pytest.param("\u00a0\u3000bob\u2007\u202f\u0085", TRIM, "bob", id="trim-nbsp-ideographic-figure-nel"),
    pytest.param("\u1680\u2028x\u205f\t\r\n", TRIM, "x", id="trim-ogham-line-separator-ascii"),
    pytest.param("\ufb01LE\u3000", ALL, "file", id="all-ligature-upper-ideographic"),
    pytest.param("\u00a0ＳＴＲＡßＥ ", ALL, "strasse", id="all-full-width-sharp-s"),
]
# Values whose index a slip in the spec's details would change.
EDGES = [
    pytest.param("\x1cx\x1f", TRIM, id="trim-keeps-U+001C-U+001F"),  # not White_Space
    pytest.param("\u200bx\u200b", TRIM, id="trim-keeps-zero-width-space"),  # not White_Space either
    pytest.param("\u00a8x", ALL, id="nfkc-after-trim-keeps-its-new-space"),  # U+00A8 becomes " \u0308"
    pytest.param("\u203ex", Normalization(trim=True, nfkc=True), id="nfkc-overline-after-trim"),
    pytest.param("ǅ", CASEFOLD, id="casefold-title-case-digraph"),
    pytest.param("\ufb01", CASEFOLD, id="casefold-alone-unfolds-the-ligature"),  # status F
    pytest.param("x", Normalization(), id="options-all-off"),
]


def test_theNormalizationHere_followsTheSpecsDetails() -> None:
    assert normalize("\u00a8x", ALL) == " \u0308x"
    assert normalize("\x1cx\x1f", TRIM) == "\x1cx\x1f" and "\x1cx\x1f".strip() == "x"
    assert normalize("\ufb01", CASEFOLD) == "fi"


@pytest.mark.parametrize(("value", "normalization", "equal_to"), TRICKY)
def test_indexesOfNormalizedValues_equalTheHmacHere(
    client: cipherd.Client, index_key: str, value: str, normalization: Normalization, equal_to: str
) -> None:
    assert normalize(value, normalization) == normalize(equal_to, normalization)
    for length in (0, 8, 16, 32):
        expected = expected_index(value, normalization, length)

        for same in (value, equal_to):
            index = client.compute_index(index_key, same, normalization=normalization, length_bytes=length)
            assert index.index == expected


@pytest.mark.parametrize(("value", "normalization"), EDGES)
def test_indexesOfEdgeValues_equalTheHmacHere(
    client: cipherd.Client, index_key: str, value: str, normalization: Normalization
) -> None:
    index = client.compute_index(index_key, value, normalization=normalization, length_bytes=16)

    assert index.index == expected_index(value, normalization, 16)


@pytest.mark.parametrize(
    "value",
    [b"\xff\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"ok\x80"],
    ids=["invalid-bytes", "overlong", "encoded-surrogate", "cut-sequence"],
)
def test_nonUtf8Values_areHashedAsGivenWithoutOptions_andRefusedWithAny(
    client: cipherd.Client, index_key: str, value: bytes
) -> None:
    assert client.compute_index(index_key, value).index == expected_index(value, None, 32)
    for normalization in (TRIM, NFKC, CASEFOLD):
        with pytest.raises(cipherd.InvalidArgumentError) as raised:
            client.compute_index(index_key, value, normalization=normalization)
        assert raised.value.code is grpc.StatusCode.INVALID_ARGUMENT

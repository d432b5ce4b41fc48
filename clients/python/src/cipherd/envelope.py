"""The ciphertext format "<NAME/vVERSION:MODE>BASE64", and the subject-bound "<NAME/s:MODE>BASE64"
(proto/README.md), parsed and formatted locally.

This is the only place the Python client knows the format: route a ciphertext by its key or check
its version without a call to the server."""

from __future__ import annotations

import base64
import binascii
import enum
import re
from dataclasses import dataclass, field

from cipherd.errors import InvalidCiphertextError

_KEY_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}", re.ASCII)
_VERSION = re.compile(r"v[1-9][0-9]{0,8}", re.ASCII)
# The length of the subject-key reference that starts a subject-bound payload: random bytes naming the
# subject's key in the server's store, never the subject.
SUBJECT_REF_SIZE = 16
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)", re.ASCII)


class Mode(str, enum.Enum):
    """The mode of a key version, by its name in a ciphertext header (the proto enum name without MODE_,
    lowercase). HMAC names index keys, which make blind indexes, and FF1 format-preserving keys: neither appears
    in a header."""

    GCM = "gcm"
    CHACHA = "chacha"
    CBC = "cbc"
    CTR = "ctr"
    CFB = "cfb"
    OFB = "ofb"
    ECB = "ecb"
    XGCM = "xgcm"
    SIV = "siv"
    HMAC = "hmac"
    FF1 = "ff1"

    @property
    def in_headers(self) -> bool:
        """Whether ciphertexts can name this mode: every mode but HMAC, which never encrypts, and FF1, whose
        format-preserving values carry no header (cipherd.formatted)."""
        return self not in (Mode.HMAC, Mode.FF1)

    def payload_length_ok(self, length: int) -> bool:
        """Whether this mode can produce a payload of `length` bytes (proto/README.md, Payload layout)."""
        if self in (Mode.GCM, Mode.CHACHA):
            return length >= 28
        if self is Mode.XGCM:
            return length >= 40
        if self is Mode.CBC:
            return length >= 32 and length % 16 == 0
        if self is Mode.ECB:
            return length >= 16 and length % 16 == 0
        if self in (Mode.HMAC, Mode.FF1):
            return False
        return length >= 16

    @property
    def subject_capable(self) -> bool:
        """Whether a subject-bound ciphertext can name this mode: gcm, chacha and xgcm."""
        return self in (Mode.GCM, Mode.CHACHA, Mode.XGCM)


@dataclass(frozen=True)
class Envelope:
    """A parsed ciphertext: the key version and mode its header names, and the raw payload. A `subject_bound` one
    (sealed under a data subject's key) names no version (key_version 0); its payload starts with the
    SUBJECT_REF_SIZE-byte reference to the subject's key, then the mode's payload."""

    key_name: str
    key_version: int
    mode: Mode
    payload: bytes = field(repr=False)
    subject_bound: bool = False

    @property
    def header(self) -> str:
        """The header text, "<" through ">", which AEAD modes authenticate."""
        if self.subject_bound:
            return f"<{self.key_name}/s:{self.mode.value}>"
        return f"<{self.key_name}/v{self.key_version}:{self.mode.value}>"

    def format(self) -> str:
        """The ciphertext text; parse(text).format() == text for every valid text."""
        return self.header + base64.b64encode(self.payload).decode("ascii")


def _reject(reason: str, problem: str) -> InvalidCiphertextError:
    # The message names the problem only: a ciphertext is data and must not reach a log line.
    return InvalidCiphertextError(f"invalid ciphertext: {problem}", defect=reason)


def parse_ciphertext(text: str) -> Envelope:
    """Parses a ciphertext's header and payload, raising InvalidCiphertextError (with .defect) if it breaks the format."""
    if not text:
        raise _reject("empty", "it is empty")
    if not text.startswith("<"):
        raise _reject("header_missing", "it must start with '<'")
    end = text.find(">")
    if end < 0:
        raise _reject("header_unterminated", "the header has no closing '>'")
    name, slash, rest = text[1:end].partition("/")
    version, colon, mode_name = rest.partition(":")
    if not slash or not colon:
        raise _reject("header_malformed", "the header must be <name/vVERSION:mode>")
    if not _KEY_NAME.fullmatch(name):
        raise _reject("key_name_invalid", "the key name must match [a-z0-9][a-z0-9_-]{0,63}")
    subject_bound = version == "s"
    if not subject_bound and not _VERSION.fullmatch(version):
        raise _reject(
            "version_invalid", "version in header must be at least 1, without leading zeros, or s (subject-bound)"
        )
    mode = next((m for m in Mode if m.value == mode_name and m.in_headers), None)
    if mode is None:
        raise _reject("mode_unknown", "unknown mode in header")
    if subject_bound and not mode.subject_capable:
        raise _reject("mode_unknown", "a subject-bound header's mode must be gcm, chacha or xgcm")
    encoded = text[end + 1 :]
    if not encoded:
        raise _reject("payload_empty", "nothing follows the header")
    if not _BASE64.fullmatch(encoded):
        raise _reject("payload_not_base64", "the payload is not padded standard base64")
    try:
        payload = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        raise _reject("payload_not_base64", "the payload is not padded standard base64") from None
    if base64.b64encode(payload).decode("ascii") != encoded:
        raise _reject("payload_not_canonical", "the payload's base64 is not canonical")
    mode_length = len(payload) - SUBJECT_REF_SIZE if subject_bound else len(payload)
    if not mode.payload_length_ok(mode_length):
        kind = f"subject-bound {mode.value}" if subject_bound else mode.value
        raise _reject("payload_length_invalid", f"a {kind} payload cannot be {len(payload)} bytes long")
    if subject_bound:
        return Envelope(name, 0, mode, payload, subject_bound=True)
    return Envelope(name, int(version[1:]), mode, payload)

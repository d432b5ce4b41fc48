"""Data encrypted before cipherd, without a header (proto/README.md, "Legacy ciphertexts"): the ciphers a
legacy key can be imported for, where their IVs are, and one such ciphertext to rewrap."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class LegacyCipher(str, enum.Enum):
    """How legacy data was encrypted: the proto enum name without LEGACY_CIPHER_, lowercase.

    A key imported with one is decrypt-only; re_encrypt rewraps its data into a cipherd key."""

    MYSQL_AES_ECB = "mysql_aes_ecb"  # MySQL/MariaDB AES_ENCRYPT(str, key_str) in its default aes-128-ecb
    AES_CBC = "aes_cbc"
    AES_ECB = "aes_ecb"
    AES_CTR = "aes_ctr"
    AES_CFB = "aes_cfb"
    AES_OFB = "aes_ofb"
    AES_GCM = "aes_gcm"
    DES_CBC = "des_cbc"
    DESEDE_CBC = "desede_cbc"
    BLOWFISH_CBC = "blowfish_cbc"
    RC4 = "rc4"


class LegacyIv(str, enum.Enum):
    """Where a legacy key's ciphertexts carry their IV: the proto enum name without LEGACY_IV_, lowercase."""

    PREPENDED = "prepended"  # the data is IV ‖ ciphertext (the default for ciphers with an IV)
    SEPARATE = "separate"  # each LegacyCiphertext brings its `iv`
    FIXED = "fixed"  # every ciphertext used the one IV given to import_key as legacy_fixed_iv


@dataclass(frozen=True)
class LegacyCiphertext:
    """One legacy ciphertext, decrypted on the server with the imported legacy key `key_name` (version
    `key_version`, 0 for its newest) and rewrapped into a cipherd key; the plaintext never comes back.

    The data is given exactly one way, as stored: `raw` bytes, `hex` text (either case, as MySQL's HEX()
    gives) or standard `base64` text. `iv` is for a key imported with LegacyIv.SEPARATE only."""

    key_name: str
    raw: bytes | None = field(default=None, repr=False)
    hex: str | None = field(default=None, repr=False)
    base64: str | None = field(default=None, repr=False)
    iv: bytes = field(default=b"", repr=False)
    key_version: int = 0

    def __post_init__(self) -> None:
        given = [name for name in ("raw", "hex", "base64") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(
                "a LegacyCiphertext takes exactly one of raw, hex or base64, got " + (", ".join(given) or "none")
            )
        if self.key_version < 0:
            raise ValueError("key_version must be 0 (the legacy key's newest) or a version number")

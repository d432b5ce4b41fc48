"""Format-preserving values (proto/README.md, "Format-preserving values"): FF1 keys' formats, and a ciphertext
kept together with the key version that made it.

An FF1 ciphertext is a value of the key's format with no header: nothing in it says which key version made it,
and decrypting with the wrong version (or context) gives a wrong value of the right shape, never an error. So
every answer is a FormattedValue, value and version together, and every call that reads a ciphertext takes one
back: store `key_version` beside `value`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field


class FpeTemplate(str, enum.Enum):
    """A named shape of value (the proto enum name without FPE_TEMPLATE_, lowercase). Characters a template
    keeps in place (separators, a card's first six and last four digits, a phone number's "+" and country
    code) are never encrypted."""

    DIGITS = "digits"
    LOWER_ALPHANUMERIC = "lower_alphanumeric"
    ALPHANUMERIC = "alphanumeric"
    CARD_NUMBER = "card_number"
    CARD_NUMBER_LAST_FOUR = "card_number_last_four"
    PHONE_NUMBER = "phone_number"


@dataclass(frozen=True)
class FpeFormat:
    """The shape of a format-preserving key's values, fixed at creation for every version: exactly one of
    `alphabet` (2 to 65,536 distinct characters, in numeral order) and `template`.

    `version_prefix_length` (alphabets only; 1 or 2) starts every ciphertext with that many characters naming
    the key version, so that decrypting needs no version beside the value (key_version 0). `accept_small_domain`
    accepts values with fewer than 1,000,000 possible encrypted values (at least 10,000): whoever may encrypt
    can tabulate them all; a 16-digit CARD_NUMBER needs it. `mask_visible_suffix` is how many trailing
    characters mask_formatted shows, 0 to 4 (0 with a template: the template's own)."""

    alphabet: str = ""
    template: FpeTemplate | None = None
    version_prefix_length: int = 0
    accept_small_domain: bool = False
    mask_visible_suffix: int = 0

    def __post_init__(self) -> None:
        if self.template is not None and not isinstance(self.template, FpeTemplate):
            object.__setattr__(self, "template", FpeTemplate(self.template))
        if bool(self.alphabet) == (self.template is not None):
            raise ValueError("an FpeFormat is an alphabet or a template, exactly one of them")


@dataclass(frozen=True)
class FormattedValue:
    """A format-preserving ciphertext and the key version that made it; both are required. `key_version` 0 is
    only for a key whose format reserves a version prefix (the value names its version); the server refuses it
    for any other key."""

    value: str
    key_version: int

    def __post_init__(self) -> None:
        if not isinstance(self.value, str) or not isinstance(self.key_version, int):
            raise TypeError("FormattedValue(value: str, key_version: int): keep the version EncryptFormatted returned")


@dataclass(frozen=True)
class FormattedRewrapped(FormattedValue):
    """A value re_encrypt_formatted moved to the key's current version (`key_version`), and the version it came
    from."""

    source_key_version: int = 0


@dataclass(frozen=True)
class FormattedPlainItem:
    """One plaintext of encrypt_formatted_batch; `reference` is echoed in its result, `context` empty means the
    call's. Its repr does not show the value."""

    value: str = field(repr=False)
    context: bytes = b""
    reference: str = ""


@dataclass(frozen=True)
class FormattedItem:
    """One ciphertext, with its version, of decrypt_formatted_batch or re_encrypt_formatted_batch; `reference`
    is echoed in its result, `context` empty means the call's."""

    ciphertext: FormattedValue
    context: bytes = b""
    reference: str = ""


def as_formatted(ciphertext: object) -> FormattedValue:
    """`ciphertext` if it is a FormattedValue: a bare string has lost its version, which FF1 cannot recover."""
    if not isinstance(ciphertext, FormattedValue):
        raise TypeError(
            "format-preserving ciphertexts travel with their key version: pass FormattedValue(value, key_version) "
            f"as encrypt_formatted returned it, not a {type(ciphertext).__name__}"
        )
    return ciphertext

"""Keys imported from Vault Transit: its derived keys' KDFs (proto/README.md, "Vault Transit ciphertexts")."""

from __future__ import annotations

import enum


class TransitKdf(str, enum.Enum):
    """How a version imported from a derived Vault Transit key (derived=true) derives each context's key:
    the values are Transit's own names, as its key info gives them in `kdf`. Such a version decrypts
    Transit's `vault:vN:` ciphertexts only, with the call's context as Transit's context, and never encrypts."""

    HKDF_SHA256 = "hkdf_sha256"  # Transit's kdf 1, every derived key it makes now
    HMAC_SHA256_COUNTER = "hmac-sha256-counter"  # Transit's kdf 0, keys made before Vault 0.9

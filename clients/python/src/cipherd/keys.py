"""Key metadata as the admin calls return it (never key bytes): versions with their usage and state, the
policy, the version census that says how far min_decryption_version can be raised, and a retirement's plan."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from cipherd.envelope import Mode
from cipherd.formatted import FpeFormat
from cipherd.legacy import LegacyCipher, LegacyIv
from cipherd.transit import TransitKdf


class KeyState(str, enum.Enum):
    """Whether a key serves calls: the proto enum name without KEY_STATE_, lowercase. Every state but ENABLED
    refuses every call (KeyDisabledError); a DELETION_SCHEDULED key's versions are destroyed at its
    delete_time unless cancel_key_deletion comes first, and a DELETED key is a tombstone."""

    ENABLED = "enabled"
    DISABLED = "disabled"
    DELETION_SCHEDULED = "deletion_scheduled"
    DELETED = "deleted"


class KeyVersionState(str, enum.Enum):
    """Whether a version's bytes still exist: the proto enum name without KEY_VERSION_STATE_, lowercase. A
    DESTRUCTION_SCHEDULED version refuses every call and is destroyed at its destroy_time unless
    cancel_key_version_destruction comes first; a DESTROYED one's ciphertexts are gone for good."""

    ENABLED = "enabled"
    DESTRUCTION_SCHEDULED = "destruction_scheduled"
    DESTROYED = "destroyed"


@dataclass(frozen=True)
class KeyPolicy:
    """What a key allows, and when it rotates by itself (proto/README.md, "Usage limits and automatic rotation").

    `auto_rotate_period` (whole seconds, at least 60; None never rotates by age) and
    `max_encryptions_per_version` (0 is the mode's safe default: 2**30 for gcm and chacha, none for xgcm
    and siv) rotate the key once its current version is that old or has encrypted that many messages.

    `cancel_destruction_on_use` cancels a version's scheduled destruction as soon as a call tries to use it
    (the call is still refused with KeyVersionDestructionScheduledError; a retry succeeds): data under it
    still exists."""

    min_decryption_version: int = 0
    min_encryption_version: int = 0
    allow_ecb_encryption: bool = False
    auto_rotate_period: timedelta | None = None
    max_encryptions_per_version: int = 0
    cancel_destruction_on_use: bool = False


@dataclass(frozen=True)
class KeyVersionUsage:
    """One version's use, merged across replicas every few seconds (so it lags by about one merge
    interval): encryptions (rewraps into it too), decryptions (rewraps out of it too), rewraps, blind
    indexes computed (index keys), and the last use (None if never used), failures included and
    all_versions lookups not.

    `failures` are calls that named the version and failed with it (wrong context, tampered, refused by
    policy or a pending destruction): data under it still exists, so they count as use. `index_lookups` are
    all_versions lookups that computed an index under it beside the version asked for (not use), the last
    at `last_lookup_time`."""

    encryptions: int = 0
    decryptions: int = 0
    rewraps: int = 0
    last_used_time: datetime | None = None
    indexes: int = 0
    failures: int = 0
    index_lookups: int = 0
    last_lookup_time: datetime | None = None


@dataclass(frozen=True)
class KeyVersion:
    """One version of a key. `mode` is None for a legacy version, which has `legacy_cipher` and
    `legacy_iv` instead (legacy_iv None when the cipher takes no IV)."""

    version: int
    mode: Mode | None
    key_size_bits: int
    create_time: datetime | None
    imported: bool = False
    legacy_cipher: LegacyCipher | None = None
    legacy_iv: LegacyIv | None = None
    usage: KeyVersionUsage = field(default_factory=KeyVersionUsage)
    state: KeyVersionState = KeyVersionState.ENABLED
    # When its bytes are (DESTRUCTION_SCHEDULED) or were (DESTROYED) erased; None otherwise.
    destroy_time: datetime | None = None
    # The shape a format-preserving (Mode.FF1) version keeps; None for other modes.
    fpe_format: FpeFormat | None = None
    # How a version imported from a derived Vault Transit key derives each context's key; None otherwise.
    transit_kdf: TransitKdf | None = None


@dataclass(frozen=True)
class Key:
    """A named key: its versions, oldest first, its policy and its state (with `delete_time`, when its
    versions are or were destroyed, for a key scheduled for deletion or deleted)."""

    key_name: str
    current_version: int
    versions: tuple[KeyVersion, ...]
    policy: KeyPolicy
    state: KeyState = KeyState.ENABLED
    delete_time: datetime | None = None
    # Whether backup_key may write the key out (create_key(exportable=True), set_key_exportable); never cleared.
    exportable: bool = False

    def version(self, number: int) -> KeyVersion:
        """The version numbered `number`; KeyError if the key has none."""
        for v in self.versions:
            if v.version == number:
                return v
        raise KeyError(number)


@dataclass(frozen=True)
class VersionCensus:
    """One version's traffic: its usage, whether it was used within the census's quiet period, and how many live
    subject keys it wraps (a version that wraps any cannot be retired until the subject-key sweep rewrapped them)."""

    version: int
    usage: KeyVersionUsage
    in_use: bool
    subject_keys: int = 0


@dataclass(frozen=True)
class KeyCensus:
    """Which versions of a key still see traffic (proto/README.md, "Version census"): `versions` from
    min_decryption_version up, oldest first, and `safe_min_decryption_version`, the highest minimum that
    refuses no version used within the quiet period."""

    key: Key
    versions: tuple[VersionCensus, ...]
    safe_min_decryption_version: int


@dataclass(frozen=True)
class DataInventory:
    """What one scan of stored data found (cipherctl scan): how many ciphertexts name each version of one key
    in `source` ("postgres:users.email", at most 256 characters). retire_key_versions(inventories=...) is
    refused while one counts a ciphertext under a version it would retire: traffic shows what is read, an
    inventory shows what exists, cold rows included."""

    key_name: str
    source: str
    versions: Mapping[int, int]  # version -> ciphertexts under it
    scan_time: datetime | None = None
    items_scanned: int = 0


@dataclass(frozen=True)
class Retirement:
    """What retire_key_versions did (or with dry_run would do): the key after it, the versions scheduled for
    destruction, oldest first, and when their bytes are erased (None when none retire)."""

    key: Key
    retired_versions: tuple[int, ...]
    destroy_time: datetime | None

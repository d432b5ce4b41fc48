"""Data subjects (proto/README.md, "Subject-bound ciphertexts"): what erase_subject, erase_subjects and get_subject
return. A subject id is personal data: no value of this module holds one, and SubjectItem never shows its own."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime


class ErasureOutcome(str, enum.Enum):
    """What erasing a subject did: the proto enum name without SUBJECT_ERASURE_OUTCOME_, lowercase."""

    ERASED = "erased"  # this call erased the subject's key; the erasure carries a receipt
    ALREADY_ERASED = "already_erased"  # an earlier call erased it; erase_time is that call's
    NO_KEY = "no_key"  # the subject never had a key under the key name: nothing of it is encrypted there


@dataclass(frozen=True)
class ErasureReceipt:
    """The audit record of an erasure, to check later against the trail (cipherctl subjects verify-receipt). It
    names the subject by `subject_hash` only: the audit key's hash of the id (lowercase hex), as hash_audit_value
    gives it and as the audit record names it; `record_hash` is the record's chain hash (lowercase hex)."""

    key_name: str
    subject_hash: str
    erase_time: datetime
    trail: str
    audit_seq: int
    record_hash: str


@dataclass(frozen=True)
class SubjectErasure:
    """The outcome of erasing one subject; `erase_time` is None for NO_KEY, `receipt` set for ERASED on a
    server with an audit trail."""

    outcome: ErasureOutcome
    erase_time: datetime | None
    receipt: ErasureReceipt | None


@dataclass(frozen=True)
class SubjectItem:
    """One subject of erase_subjects; `reference` is echoed in its result. Its repr never shows the subject."""

    subject: str = field(repr=False)
    reference: str = ""


class SubjectState(str, enum.Enum):
    """A subject's state under a key: the proto enum name without SUBJECT_STATE_, lowercase."""

    ACTIVE = "active"  # the subject has a key; its data decrypts
    ERASED = "erased"  # its key was erased; its data never decrypts again
    NO_KEY = "no_key"  # the subject never had a key under the key name


@dataclass(frozen=True)
class SubjectStatus:
    """What get_subject says of a subject: its state, when its (current, or erased) key was made (None for
    NO_KEY), when it was erased (ERASED only) and the key version that wraps its key now (0 unless ACTIVE)."""

    state: SubjectState
    create_time: datetime | None
    erase_time: datetime | None
    key_version: int

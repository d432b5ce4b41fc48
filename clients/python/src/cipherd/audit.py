"""Checks a cipherd audit trail (docs/audit.md): every line's ``prev`` is the SHA-256 of the line
before it, seqs run on by one across files, and each checkpoint's MAC holds under the audit key.

The audit key never leaves the server, so a checkpoint's MAC is checked by a ``CheckpointCheck``:
:func:`checkpoints_under` when you hold the key (tests, an offline copy from the key store), or the
server's answer (:func:`verify_with_server`). Without one the chain is still checked, and the verdict says
the MACs were not.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

#: (seq, time, prev, mac) of a checkpoint line -> whether its MAC is the audit key's.
CheckpointCheck = Callable[[int, str, str, str], bool]

_CHECKPOINT_LABEL = b"cipherd audit checkpoint v1"
_MAC_PREFIX = "hmac-sha256:"


@dataclass(frozen=True)
class AuditVerdict:
    """What the files showed. ``problem`` is ``"FILE:LINE: what"`` for the first line blamed, or None."""

    problem: str | None
    calls: int
    checkpoints: int
    torn: int
    unchecked_calls: int
    macs_checked: bool

    @property
    def intact(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class Checkpoint:
    """A checkpoint line's fields as written: what the server needs to check its MAC."""

    seq: int
    time: str
    prev: str
    mac: str


class CheckpointVerifier(Protocol):
    """What verify_with_server needs of a client: cipherd.Client is one."""

    def verify_audit_checkpoints(self, checkpoints: Sequence[Checkpoint], *,
                                 timeout: float | None = None) -> list[bool]: ...


def _read(files: Sequence[str | Path]) -> list[tuple[str, bytes]]:
    return [(Path(f).name, Path(f).read_bytes()) for f in files]


def _checkpoints_of(read: Sequence[tuple[str, bytes]]) -> list[Checkpoint]:
    found = []
    for _, data in read:
        for line in data.split(b"\n"):
            try:
                record = json.loads(line)
                if record["type"] == "checkpoint":
                    found.append(Checkpoint(int(record["seq"]), str(record["time"]), str(record["prev"]),
                                            str(record["mac"])))
            except (ValueError, KeyError, TypeError):
                continue
    return found


def checkpoints(files: Sequence[str | Path]) -> list[Checkpoint]:
    """The checkpoint lines of ``files``, in order; lines that do not parse are left to :func:`verify`."""
    return _checkpoints_of(_read(files))


def answered(asked: Sequence[Checkpoint], valid: Sequence[bool]) -> CheckpointCheck:
    """A check answering from verdicts already given (``valid[i]`` for ``asked[i]``): a checkpoint passes only
    if it was asked about and found valid."""
    answers = dict(zip(asked, valid))

    def check(seq: int, time: str, prev: str, mac: str) -> bool:
        return answers.get(Checkpoint(seq, time, prev, mac), False)

    return check


def verify_with_server(client: CheckpointVerifier, files: Sequence[str | Path]) -> tuple[AuditVerdict, int]:
    """Verifies ``files`` (oldest first) with each checkpoint's MAC checked by the server that wrote them,
    in one call per 10,000 checkpoints; also returns how many checkpoints the server was asked about. A
    chain that links up but whose checkpoints fail here was rewritten by someone without the audit key.

    Each file is read once, so the server's answers and the chain check see the same bytes however the live
    file grows meanwhile (asking the server is itself an audited call); a last line the server is still
    writing is left out."""
    read = _read(files)
    if read and b"\n" in read[-1][1] and not read[-1][1].endswith(b"\n"):
        name, data = read[-1]
        read[-1] = (name, data[:data.rindex(b"\n") + 1])
    asked = _checkpoints_of(read)
    valid = client.verify_audit_checkpoints(asked)
    return _verify_read(read, answered(asked, valid)), len(asked)


def checkpoints_under(audit_key: bytes) -> CheckpointCheck:
    """A check of checkpoint MACs with the audit key itself (the server derives the same subkey)."""
    subkey = hmac.new(audit_key, _CHECKPOINT_LABEL, hashlib.sha256).digest()

    def check(seq: int, time: str, prev: str, mac: str) -> bool:
        expected = _MAC_PREFIX + hmac.new(subkey, f"{seq}\n{time}\n{prev}".encode("ascii"),
                                          hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected.encode("ascii"), mac.encode("ascii"))

    return check


def verify(files: Sequence[str | Path], check: CheckpointCheck | None = None) -> AuditVerdict:
    """Verifies ``files`` as one chain, oldest first (rotated files before the live one)."""
    return _verify_read(_read(files), check)


def _verify_read(read: Sequence[tuple[str, bytes]], check: CheckpointCheck | None) -> AuditVerdict:
    calls = checkpoints = torn = unchecked = 0
    prev_hash: str | None = None
    prev_seq = -1
    prev_where = ""
    prev_torn = False  # the line before was cut short: it has no seq to name

    def verdict(problem: str | None) -> AuditVerdict:
        return AuditVerdict(problem, calls, checkpoints, torn, unchecked, check is not None)

    for name, data in read:
        if data and not data.endswith(b"\n"):
            return verdict(f"{name} does not end with a whole line")
        for number, line in enumerate(data.split(b"\n")[:-1], start=1):
            where = f"{name}:{number}"
            try:
                record = json.loads(line)
                kind, seq, prev = str(record["type"]), int(record["seq"]), str(record["prev"])
            except (ValueError, KeyError, TypeError):
                # A line cut short by a crash; the restart's start line chains over it.
                torn += 1
                prev_hash, prev_where, prev_torn = _sha256(line), where, True
                continue
            in_sequence = prev_hash is None or seq == prev_seq + 1
            if prev_hash is not None and prev != prev_hash:
                if in_sequence:
                    altered = f"{prev_where}:" if prev_torn else f"{prev_where}: seq {prev_seq}"
                    return verdict(f"{altered} altered (its hash is not the prev of the line after it)")
                return verdict(f"{where}: seq {seq} follows seq {prev_seq} (lines removed or reordered)")
            if not in_sequence:
                return verdict(f"{where}: seq {seq} follows seq {prev_seq}")
            if kind == "call":
                calls += 1
                unchecked += 1
            elif kind == "checkpoint":
                if check is not None and not check(seq, str(record["time"]), prev, str(record["mac"])):
                    return verdict(f"{where}: checkpoint seq {seq} fails its MAC")
                checkpoints += 1
                unchecked = 0
            prev_hash, prev_seq, prev_where, prev_torn = _sha256(line), seq, where, False
    return verdict(None)


def _sha256(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()

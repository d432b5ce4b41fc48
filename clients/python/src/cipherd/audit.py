"""Checks a cipherd audit trail (docs/audit.md): every line's ``prev`` is the SHA-256 of the line
before it, seqs run on by one across files, and each checkpoint's MAC holds under the audit key.

The audit key never leaves the server, so a checkpoint's MAC is checked by a ``CheckpointCheck``:
:func:`checkpoints_under` when you hold the key (tests, an offline copy from the key store), or the
server's answer (:func:`verify_with_server`). Without one the chain is still checked, and the verdict says
the MACs were not.

The chain alone cannot prove the trail complete at either end: lines cut from its end, or from its start, leave a
chain that holds. The server's head (an ``AuditHead``, anchored in its key store) says where the trail starts and
how far it reached; given one, the files must start at genesis or at the anchored first line, reach the anchored
checkpoint, hold the files it lists, and carry no cut the server recorded at a restart.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from google.protobuf import json_format

from cipherd.v1 import audit_service_pb2 as audit_pb

#: The server's anchor of a trail (start, head checkpoint, files), as VerifyAuditCheckpoints returns it.
AuditHead = audit_pb.AuditHead

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
    #: False when no head was given: the trail is then intact only as far as the chain goes.
    completeness_checked: bool = False
    #: The trail name the start lines carry ("" when none).
    trail: str = ""

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

    def verify_audit_checkpoints(
        self, checkpoints: Sequence[Checkpoint], *, timeout: float | None = None
    ) -> list[bool]: ...

    def audit_head(self, trail: str = "", *, timeout: float | None = None) -> AuditHead | None: ...


def read_head(path: str | Path) -> AuditHead:
    """An AuditHead written as protojson (what ``cipherctl audit verify --offline --head FILE`` reads)."""
    return json_format.Parse(Path(path).read_text(encoding="utf-8"), AuditHead())


def trail_name(files: Sequence[str | Path]) -> str:
    """The trail name the start lines of ``files`` carry (the first "trail" field found), "" when none does: the
    name to ask the server's head for."""
    for file in files:
        with open(file, "rb") as f:
            for line in f:
                if not line.startswith(b'{"type":"start"'):
                    continue
                try:
                    name = str(json.loads(line).get("trail", ""))
                except (ValueError, AttributeError):
                    continue
                if name:
                    return name
    return ""


def _read(files: Sequence[str | Path]) -> list[tuple[str, bytes]]:
    return [(Path(f).name, Path(f).read_bytes()) for f in files]


def _checkpoints_of(read: Sequence[tuple[str, bytes]]) -> list[Checkpoint]:
    found = []
    for _, data in read:
        for line in data.split(b"\n"):
            try:
                record = json.loads(line)
                if record["type"] == "checkpoint":
                    found.append(
                        Checkpoint(int(record["seq"]), str(record["time"]), str(record["prev"]), str(record["mac"]))
                    )
            except (ValueError, KeyError, TypeError):
                continue
    return found


def checkpoints(files: Sequence[str | Path]) -> list[Checkpoint]:
    """The checkpoint lines of ``files``, in order; lines that do not parse are left to :func:`verify`."""
    return _checkpoints_of(_read(files))


def answered(asked: Sequence[Checkpoint], valid: Sequence[bool]) -> CheckpointCheck:
    """A check answering from verdicts already given (``valid[i]`` for ``asked[i]``): a checkpoint passes only
    if it was asked about and found valid."""
    answers = dict(zip(asked, valid, strict=False))  # an unanswered checkpoint fails

    def check(seq: int, time: str, prev: str, mac: str) -> bool:
        return answers.get(Checkpoint(seq, time, prev, mac), False)

    return check


def verify_with_server(client: CheckpointVerifier, files: Sequence[str | Path]) -> tuple[AuditVerdict, int]:
    """Verifies ``files`` (oldest first) with each checkpoint's MAC checked by the server that wrote them,
    in one call per 10,000 checkpoints, and the trail's completeness against the head the server's key store
    holds for it; also returns how many checkpoints the server was asked about. A chain that links up but
    whose checkpoints fail here was rewritten by someone without the audit key; one that stops before the
    head, or starts after its first line, lost lines at an end.

    The head is asked for first: it is anchored only after its line is durable, so the files read afterwards
    reach it unless lines were removed. Each file is then read once, so the server's answers and the chain
    check see the same bytes however the live file grows meanwhile (asking the server is itself an audited
    call); a last line the server is still writing is left out. Without a head from the server (none
    anchored for the trail, or files whose start lines name no trail) the verdict's ``completeness_checked`` is
    False."""
    trail = trail_name(files)
    head = client.audit_head(trail)
    if head is not None and head.trail != trail:
        head = None  # the files name no trail, and the server's own is another one
    read = _read(files)
    if read and b"\n" in read[-1][1] and not read[-1][1].endswith(b"\n"):
        name, data = read[-1]
        read[-1] = (name, data[: data.rindex(b"\n") + 1])
    asked = _checkpoints_of(read)
    valid = client.verify_audit_checkpoints(asked)
    return _verify_read(read, answered(asked, valid), head), len(asked)


def checkpoints_under(audit_key: bytes) -> CheckpointCheck:
    """A check of checkpoint MACs with the audit key itself (the server derives the same subkey)."""
    subkey = hmac.new(audit_key, _CHECKPOINT_LABEL, hashlib.sha256).digest()

    def check(seq: int, time: str, prev: str, mac: str) -> bool:
        expected = _MAC_PREFIX + hmac.new(subkey, f"{seq}\n{time}\n{prev}".encode("ascii"), hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected.encode("ascii"), mac.encode("ascii"))

    return check


def verify(
    files: Sequence[str | Path], check: CheckpointCheck | None = None, head: AuditHead | None = None
) -> AuditVerdict:
    """Verifies ``files`` as one chain, oldest first (rotated files before the live one); with ``head``, also
    that the trail is complete at both ends."""
    return _verify_read(_read(files), check, head)


_GENESIS_PREV = "0" * 64


def _missing_files(head: AuditHead | None, first: int, last: int) -> str:
    """The head's files holding seqs first..last, named; "" when none (or no head)."""
    if head is None:
        return ""
    missing = [
        f"{f.name}, seqs {f.first_seq}-{f.last_seq}" for f in head.files if f.first_seq <= last and f.last_seq >= first
    ]
    return f" (missing: {'; '.join(missing)})" if missing else ""


def _start_line_problem(record: dict[str, Any], first_of_file: bool, previous_file: str | None) -> str | None:
    """A cut the server recorded at a restart, or a rotation line not naming the file read before it."""
    cut = record.get("cut")
    if isinstance(cut, dict):
        return (
            f"the server found the trail cut at restart: its anchor was at seq {cut.get('anchored_seq')}, "
            f"the files ended at seq {cut.get('found_seq')}"
        )
    if (
        record.get("why") == "rotation"
        and first_of_file
        and previous_file is not None
        and record.get("from", "") != previous_file
    ):
        return (
            f"the rotation line says the trail went on from {json.dumps(record.get('from', ''))}, but the file "
            f"before it is {json.dumps(previous_file)}: files were removed, renamed or reordered"
        )
    return None


def _verify_read(
    read: Sequence[tuple[str, bytes]], check: CheckpointCheck | None, head: AuditHead | None = None
) -> AuditVerdict:
    calls = checkpoints = torn = unchecked = 0
    prev_hash: str | None = None
    prev_seq = -1
    prev_where = ""
    prev_torn = False  # the line before was cut short: it has no seq to name
    previous_file: str | None = None
    trail = ""
    last_where = ""
    head_problem: str | None = None  # the line at an anchored seq is not the anchor's: blamed once all is read
    head_seen = False

    def verdict(problem: str | None) -> AuditVerdict:
        return AuditVerdict(problem, calls, checkpoints, torn, unchecked, check is not None, head is not None, trail)

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
                if prev_hash is None and head is not None:
                    return verdict(f"{where}: the trail's first line is not a whole record: its start was cut")
                torn += 1
                prev_hash, prev_where, prev_torn = _sha256(line), where, True
                continue
            line_hash = _sha256(line)
            if prev_hash is None and kind != "start":
                return verdict(
                    f"{where}: the trail's first line, seq {seq}, is a {kind} line, not a start line: lines "
                    "before it were removed"
                )
            if prev_hash is None and head is not None:
                genesis = kind == "start" and record.get("why") == "new" and seq == 0 and prev == _GENESIS_PREV
                if not genesis and seq > head.first_seq:
                    return verdict(
                        f"{where}: the trail starts at seq {seq}, but its anchor starts it at seq "
                        f"{head.first_seq}: lines before were removed"
                        f"{_missing_files(head, head.first_seq, seq - 1)}"
                    )
            in_sequence = prev_hash is None or seq == prev_seq + 1
            if prev_hash is not None and prev != prev_hash:
                if in_sequence:
                    altered = f"{prev_where}:" if prev_torn else f"{prev_where}: seq {prev_seq}"
                    return verdict(f"{altered} altered (its hash is not the prev of the line after it)")
                return verdict(
                    f"{where}: seq {seq} follows seq {prev_seq} (lines removed or reordered)"
                    f"{_missing_files(head, prev_seq + 1, seq - 1)}"
                )
            if not in_sequence:
                return verdict(
                    f"{where}: seq {seq} follows seq {prev_seq}{_missing_files(head, prev_seq + 1, seq - 1)}"
                )
            if kind == "start":
                problem = _start_line_problem(record, number == 1, previous_file)
                if problem is not None:
                    return verdict(f"{where}: {problem}")
                trail = trail or str(record.get("trail", ""))
            if head is not None and head_problem is None:
                if seq == head.first_seq and line_hash != head.first_hash:
                    head_problem = (
                        f"{where}: seq {seq} is not the anchored first line (its hash is not the anchor's): "
                        "the trail's start was rewritten"
                    )
                elif seq == head.seq and not head_seen and line_hash != head.hash:
                    head_problem = (
                        f"{where}: the line at seq {seq} is not the anchored head (its hash is not the "
                        "anchor's): the tail was rewritten"
                    )
            head_seen = head_seen or (head is not None and seq == head.seq)
            last_where = where
            if kind == "call":
                calls += 1
                unchecked += 1
            elif kind == "checkpoint":
                if check is not None and not check(seq, str(record["time"]), prev, str(record["mac"])):
                    return verdict(f"{where}: checkpoint seq {seq} fails its MAC")
                checkpoints += 1
                unchecked = 0
            prev_hash, prev_seq, prev_where, prev_torn = line_hash, seq, where, False
        previous_file = name
    if head is not None and head_problem is None:
        if not last_where:
            head_problem = f"the files hold no lines, but the trail's anchor reaches seq {head.seq}"
        elif not head_seen:
            head_problem = (
                f"{last_where}: the trail ends at seq {prev_seq}, before the anchored head at seq "
                f"{head.seq}: lines were removed from its end"
            )
    return verdict(head_problem)


def _sha256(line: bytes) -> str:
    return hashlib.sha256(line).hexdigest()

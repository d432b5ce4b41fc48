"""Issue 28, F1-F3: an insider who can write the audit files (and restart the server) removes records, and
both verifiers (Python cipherd.audit.verify_with_server and cipherctl audit verify) must say NOT intact.

The attacker here is not a caller: it edits the files the real jar wrote. Each attack is made on a trail a
server wrote and stopped (so its anchored head stands still), and the tampered files are verified through a
server on the same key store (same audit key, same anchored heads) writing a trail of its own; an untampered
copy made at the same time must verify intact (the positive control), so a verdict cannot come from the copy
being a copy.

Budgets:
- F1 (cut back to an earlier checkpoint, then restart): 0 of the removed records go unnoticed: the restarted
  server records the cut on its start line (found_seq = the checkpoint cut back to), or refuses to start under
  --audit-required; both verifiers fail the trail.
- F2 (the tail after a checkpoint rewritten: a Decrypt record deleted, later checkpoints dropped, the rest
  re-hashed, no key needed): 0 such tails verify intact, by either verifier.
- F3 (the first lines deleted; the oldest rotated file deleted): 0 verify intact, and the verdict names the
  missing file.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import pytest
from servers import serve

import cipherd
from cipherd.audit import AuditVerdict, verify_with_server

CHECKPOINT_EVERY = "PT0.05S"
GO_CLIENT = Path(__file__).resolve().parents[1] / "clients" / "go"


@pytest.fixture(scope="module")
def cipherctl(tmp_path_factory: pytest.TempPathFactory) -> str:
    """cipherctl built from clients/go (CIPHERD_CIPHERCTL names another build)."""
    if given := os.environ.get("CIPHERD_CIPHERCTL"):
        return given
    out = tmp_path_factory.mktemp("cipherctl") / "cipherctl"
    subprocess.run(["go", "build", "-o", str(out), "./cmd/cipherctl"], cwd=GO_CLIENT, check=True, timeout=600)
    return str(out)


@dataclass(frozen=True)
class Verdicts:
    """What both verifiers said of one trail."""

    python: AuditVerdict
    cipherctl_exit: int
    cipherctl_out: str

    @property
    def both_fail(self) -> bool:
        return not self.python.intact and self.cipherctl_exit == 1 and "NOT intact" in self.cipherctl_out

    @property
    def both_intact(self) -> bool:
        return self.python.intact and self.cipherctl_exit == 0


def trail_files(live: Path) -> list[Path]:
    """The trail's files, oldest first: the rotated siblings (their names sort by time), then the live file."""
    return [*sorted(live.parent.glob(live.name + ".*")), live]


def verdicts(target: str, live: Path, cipherctl: str) -> Verdicts:
    with cipherd.Client(target, timeout=30) as client:
        python, _ = verify_with_server(client, trail_files(live))
    done = subprocess.run(
        [cipherctl, "audit", "verify", str(live)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CIPHERD_ADDR": target},
        check=False,
    )
    return Verdicts(python, done.returncode, done.stdout + done.stderr)


def trail_bytes(live: Path, attempts: int = 20) -> bytes:
    """The trail's bytes, its rotated files first. A rotation renames the live file and then opens a new
    one: read while the server rotates, a file listed may be gone, so the files are listed and read again."""
    for _ in range(attempts - 1):
        try:
            return b"".join(f.read_bytes() for f in trail_files(live))
        except FileNotFoundError:
            time.sleep(0.01)
    return b"".join(f.read_bytes() for f in trail_files(live))


def records(live: Path) -> list[dict[str, object]]:
    """The records of the trail whose live file is `live`, its rotated files first."""
    out = []
    for raw in trail_bytes(live).split(b"\n"):
        try:
            out.append(json.loads(raw))
        except ValueError:
            continue
    return out


def last_checkpoint(live: Path) -> int:
    return max((int(str(r["seq"])) for r in records(live) if r["type"] == "checkpoint"), default=-1)


def checkpointed(live: Path, after_seq: int, timeout: float = 10) -> int:
    """Waits until a checkpoint follows seq `after_seq` (the server writes one every 50 ms after records) and
    returns its seq."""
    deadline = time.monotonic() + timeout
    while (seq := last_checkpoint(live)) <= after_seq:
        assert time.monotonic() < deadline, f"no checkpoint after seq {after_seq} within {timeout} s"
        time.sleep(0.05)
    time.sleep(0.3)  # its head is anchored after the checkpoint is forced, on the anchor's own thread
    return seq


def last_seq(live: Path) -> int:
    """The seq of the last call record: the one a checkpoint must follow."""
    return max(int(str(r["seq"])) for r in records(live) if r["type"] == "call")


def calls(target: str, encrypts: int, decrypts: int = 0) -> None:
    with cipherd.Client(target, timeout=30) as client:
        with suppress(cipherd.AlreadyExistsError):
            client.create_key("ledger")
        ciphertext = ""
        for i in range(encrypts):
            ciphertext = client.encrypt("ledger", f"row-{i}".encode(), context=b"ledger")
        for _ in range(decrypts):
            client.decrypt(ciphertext, context=b"ledger")


def audited_args(live: Path, *more: str) -> list[str]:
    return ["--audit-log", str(live), "--audit-checkpoint-interval", CHECKPOINT_EVERY, *more]


@contextmanager
def verifier(workdir: Path) -> Iterator[str]:
    """A server on `workdir`'s key store (its audit key, its anchored heads) writing a trail of its own: it checks
    checkpoint MACs and answers heads for any trail, as any replica does."""
    (workdir / "verifier").mkdir(exist_ok=True)
    with serve(workdir, ["--audit-log", str(workdir / "verifier" / "audit.log")]) as target:
        yield target.server.target


def cut_after(live: Path, seq: int) -> int:
    """Cuts `live` back to the end of the line numbered `seq`; returns how many call records went."""
    lines = live.read_bytes().split(b"\n")
    kept: list[bytes] = []
    removed = 0
    for raw in lines[:-1]:
        record = json.loads(raw)
        if int(record["seq"]) <= seq:
            kept.append(raw)
        elif record["type"] == "call":
            removed += 1
    live.write_bytes(b"\n".join(kept) + b"\n")
    return removed


def rechain_without(live: Path, after_seq: int, method_suffix: str) -> int:
    """The F2 forgery, no key needed: keeps the lines up to seq `after_seq`, deletes the call records whose
    method ends with `method_suffix` and every later checkpoint, and renumbers and re-hashes the rest so the chain
    links up. Returns how many records it deleted."""
    out: list[bytes] = []
    deleted = 0
    for raw in live.read_bytes().split(b"\n")[:-1]:
        record = json.loads(raw)
        if int(record["seq"]) <= after_seq:
            out.append(raw)
            continue
        if record["type"] == "checkpoint":
            continue
        if record["type"] == "call" and str(record.get("method", "")).endswith(method_suffix):
            deleted += 1
            continue
        seq = int(json.loads(out[-1])["seq"]) + 1
        raw = re.sub(rb'"seq":\d+,', f'"seq":{seq},'.encode(), raw, count=1)
        raw = re.sub(
            rb'"prev":"[0-9a-f]{64}"', f'"prev":"{hashlib.sha256(out[-1]).hexdigest()}"'.encode(), raw, count=1
        )
        out.append(raw)
    live.write_bytes(b"\n".join(out) + b"\n")
    return deleted


def copy_trail(live: Path, into: Path) -> Path:
    into.mkdir(parents=True)
    for f in trail_files(live):
        shutil.copy2(f, into / f.name)
    return into / live.name


def test_f1_a_trail_cut_back_to_a_checkpoint_and_restarted_is_caught(tmp_path: Path, cipherctl: str) -> None:
    workdir, live = tmp_path / "server", tmp_path / "trail" / "audit.log"
    live.parent.mkdir()
    with serve(workdir, audited_args(live)) as target:
        calls(target.server.target, 5)
        kept = checkpointed(live, last_seq(live))
        calls(target.server.target, 10, decrypts=5)
        checkpointed(live, last_seq(live))
        before = verdicts(target.server.target, live, cipherctl)
        assert before.both_intact, f"the trail before the cut: {before}"
    removed = cut_after(live, kept)
    assert removed >= 15

    with serve(workdir, audited_args(live)) as target:
        calls(target.server.target, 1)
        checkpointed(live, last_seq(live))
        after = verdicts(target.server.target, live, cipherctl)
    cuts = [r.get("cut") for r in records(live) if r["type"] == "start" and int(str(r["seq"])) > kept]
    assert after.both_fail, f"{removed} records cut after checkpoint seq {kept} went unnoticed: {after}"
    assert cuts and isinstance(cuts[0], dict) and cuts[0]["found_seq"] == kept, (
        f"the restarted server did not record the cut back to seq {kept}: start lines' cut {cuts}"
    )
    assert "cut at restart" in (after.python.problem or "") and "cut at restart" in after.cipherctl_out


def test_f1_under_audit_required_the_server_refuses_a_cut_trail(tmp_path: Path, cipherctl: str) -> None:
    workdir, live = tmp_path / "server", tmp_path / "trail" / "audit.log"
    live.parent.mkdir()
    with serve(workdir, audited_args(live, "--audit-required")) as target:
        calls(target.server.target, 5)
        kept = checkpointed(live, last_seq(live))
        calls(target.server.target, 10, decrypts=5)
        checkpointed(live, last_seq(live))
    removed = cut_after(live, kept)

    started = True
    try:
        with serve(workdir, audited_args(live, "--audit-required")):
            pass
    except RuntimeError as refused:
        started = False
        assert "cut" in str(refused) or "head" in str(refused), f"the refusal does not say why: {refused}"
    assert not started, f"the server started under --audit-required on a trail with {removed} records cut"
    with verifier(workdir) as target:
        cut = verdicts(target, live, cipherctl)
    assert cut.both_fail, f"{removed} records cut after checkpoint seq {kept} went unnoticed: {cut}"


def test_f2_a_tail_rewritten_after_a_checkpoint_is_caught(tmp_path: Path, cipherctl: str) -> None:
    workdir, live = tmp_path / "server", tmp_path / "trail" / "audit.log"
    live.parent.mkdir()
    with serve(workdir, audited_args(live)) as target:
        calls(target.server.target, 5)
        kept = checkpointed(live, last_seq(live))
        calls(target.server.target, 5, decrypts=1)  # the Decrypt to hide
        checkpointed(live, last_seq(live))
    honest = copy_trail(live, tmp_path / "honest")
    forged = copy_trail(live, tmp_path / "forged")
    deleted = rechain_without(forged, kept, "/Decrypt")
    assert deleted == 1

    with verifier(workdir) as target:
        control = verdicts(target, honest, cipherctl)
        rechained = verdicts(target, forged, cipherctl)
    assert control.both_intact, f"the untampered copy: {control}"
    assert rechained.both_fail, f"a Decrypt record deleted after checkpoint seq {kept}, re-hashed: {rechained}"


def test_f3_the_first_lines_deleted_are_caught(tmp_path: Path, cipherctl: str) -> None:
    workdir, live = tmp_path / "server", tmp_path / "trail" / "audit.log"
    live.parent.mkdir()
    with serve(workdir, audited_args(live)) as target:
        calls(target.server.target, 5)
        checkpointed(live, last_seq(live))
    honest = copy_trail(live, tmp_path / "honest")
    headless = copy_trail(live, tmp_path / "headless")
    lines = headless.read_bytes().split(b"\n")
    headless.write_bytes(b"\n".join(lines[3:]))

    with verifier(workdir) as target:
        control = verdicts(target, honest, cipherctl)
        cut = verdicts(target, headless, cipherctl)
    assert control.both_intact, f"the untampered copy: {control}"
    assert cut.both_fail, f"the first 3 lines deleted: {cut}"


def test_f3_the_oldest_rotated_file_deleted_is_caught_and_named(tmp_path: Path, cipherctl: str) -> None:
    workdir, live = tmp_path / "server", tmp_path / "trail" / "audit.log"
    live.parent.mkdir()
    with serve(workdir, audited_args(live, "--audit-rotate-size", "4096")) as target:
        calls(target.server.target, 30)
        checkpointed(live, last_seq(live))
    assert len(trail_files(live)) >= 3, "the trail did not rotate twice"
    honest = copy_trail(live, tmp_path / "honest")
    pruned = copy_trail(live, tmp_path / "pruned")
    oldest = trail_files(pruned)[0]
    oldest.unlink()

    with verifier(workdir) as target:
        control = verdicts(target, honest, cipherctl)
        cut = verdicts(target, pruned, cipherctl)
    assert control.both_intact, f"the untampered copy: {control}"
    assert cut.both_fail, f"the oldest rotated file deleted: {cut}"
    assert oldest.name in (cut.python.problem or "") and oldest.name in cut.cipherctl_out, (
        f"the verdicts do not name the missing {oldest.name}: {cut}"
    )

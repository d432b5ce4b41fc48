"""One page's shell session: a bash process that runs the page's blocks one after another, so that `cd`,
`export` and files made by one block are there for the next, as in a reader's terminal."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Outcome:
    """What one piece of a block did: its exit status (None: the shell ended) and its output."""

    status: int | None
    stdout: str
    stderr: str
    failed_at: tuple[int, str] | None = None  # the line (within the piece) and the command that failed

    @property
    def output(self) -> str:
        """stdout and stderr as a terminal shows them (stderr after stdout when both wrote)."""
        return self.stdout + self.stderr


class Session:
    """A bash process in `cwd` with `env`; each piece of text runs in it with its own output files."""

    def __init__(self, cwd: Path, env: dict[str, str], scratch: Path, timeout_s: float) -> None:
        self.scratch, self.timeout_s, self._count = scratch, timeout_s, 0
        scratch.mkdir(parents=True, exist_ok=True)
        self._log = open(scratch / "session.log", "w")  # noqa: SIM115 - open for the session, closed by close()
        self._bash = subprocess.Popen(
            ["bash", "--noprofile", "--norc"],
            cwd=cwd,
            env=env,
            text=True,
            stdin=subprocess.PIPE,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def run(self, text: str, *, errexit: bool = True, stdin: str | None = None, apart: bool = False) -> Outcome:
        """Runs `text` as if typed; with `errexit` the first failing command ends it (and the session).
        Its stdout and stderr come back together, in the order written, unless `apart`."""
        self._count += 1
        n, d = self._count, self.scratch
        (d / f"{n}.in").write_text(stdin + "\n" if stdin is not None else "")
        for name in (f"{n}.out", f"{n}.err", f"{n}.status", f"{n}.failed"):
            (d / name).unlink(missing_ok=True)
        # Under errexit the ERR trap notes the failing command before bash ends.
        flags = (
            f'set -eo pipefail; trap \'printf "%s\\t%s" "$LINENO" "$BASH_COMMAND" > {d}/{n}.failed\' ERR'
            if errexit
            else "set +e +o pipefail"
        )
        # `$?` at the start of the piece is the status the piece before ended with, as `echo $?` expects.
        (d / f"{n}.sh").write_text("( exit ${__docs_status:-0} )\n" + text if not errexit else text)
        errors = f"'{d}/{n}.err'" if apart else "&1"
        # The status file appears when the piece is done; under errexit a failing command ends bash first.
        command = (
            f"{{ {flags}; source '{d}/{n}.sh'; }} < '{d}/{n}.in' > '{d}/{n}.out' 2>{errors}; "
            f"__docs_status=$?; echo $__docs_status > '{d}/{n}.status.tmp' && "
            f"mv '{d}/{n}.status.tmp' '{d}/{n}.status'; set +e\n"
        )
        assert self._bash.stdin is not None
        try:
            self._bash.stdin.write(command)
            self._bash.stdin.flush()
        except BrokenPipeError:
            return Outcome(None, "", "the shell had already ended")
        deadline = time.monotonic() + self.timeout_s
        status_file = d / f"{n}.status"
        while not status_file.exists():
            if self._bash.poll() is not None:
                failed = self._read(f"{n}.failed").split("\t", 1)
                at = (int(failed[0]), failed[1]) if len(failed) == 2 and failed[0].isdigit() else None
                return Outcome(None, self._read(f"{n}.out"), self._read(f"{n}.err"), at)
            if time.monotonic() > deadline:
                self.close()
                return Outcome(
                    None, self._read(f"{n}.out"), self._read(f"{n}.err") + f"\n(stopped after {self.timeout_s:.0f} s)"
                )
            time.sleep(0.02)
        return Outcome(int(status_file.read_text()), self._read(f"{n}.out"), self._read(f"{n}.err"))

    def _read(self, name: str) -> str:
        path = self.scratch / name
        return path.read_text(errors="replace") if path.exists() else ""

    def close(self) -> None:
        if self._bash.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self._bash.pid, signal.SIGTERM)
            try:
                self._bash.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self._bash.pid, signal.SIGKILL)
                self._bash.wait()
        self._log.close()

"""Processes the runner starts. A server (cipherd, the echo ceiling, Vault) is launched with its
output in a log file, polled until its readiness probe answers (or it dies, or time runs out),
measured by CPU time, and stopped with SIGTERM then SIGKILL. A load client (ghz, h2load) runs to its
end within a bound, measured by its own rusage."""

import os
import signal
import socket
import subprocess
import time
import urllib.error
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..measure.cpu import process_cpu_seconds

HOST = "127.0.0.1"
NOT_YET = (urllib.error.URLError, ConnectionError, TimeoutError)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class ClientRun:
    exit_code: int
    killed: bool  # still running at the bound, so killed
    wall_s: float
    cpu_s: float  # user + system, from wait4's rusage
    max_rss_kib: int


def run_bounded(cmd: list[str], stdout, stderr, bound_s: float) -> ClientRun:
    """Runs a load client to its end, killing it if it is still running after bound_s seconds."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=stdout, stderr=stderr)
    deadline = start + bound_s
    killed = False
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            killed = True
            pid, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.05)
    return ClientRun(
        os.waitstatus_to_exitcode(status),
        killed,
        time.monotonic() - start,
        usage.ru_utime + usage.ru_stime,
        usage.ru_maxrss,
    )


class ManagedProcess:
    """A server process: launched with its output in a log, polled until ready, stopped by SIGTERM."""

    def __init__(self, name: str, log_path: Path):
        self.name, self.log_path = name, log_path
        self.proc = None
        self._log = None

    def launch(self, cmd: list[str], env: dict | None = None) -> None:
        """Starts the process, its output in the log: a new log the first time, the same one appended to
        when launched again after a stop."""
        mode = "w" if self.proc is None else "a"
        self._log = open(self.log_path, mode)  # noqa: SIM115 - the server's output for its lifetime, closed by stop()
        self.proc = subprocess.Popen(cmd, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)

    def wait_ready(self, ready: Callable[[], bool], timeout: float) -> None:
        """Polls `ready` (which may raise NOT_YET errors) until it is true; stops the process and
        exits the runner with a pointer to the log when the process dies or time runs out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(
                    f"loadtest: {self.name} exited with {self.proc.returncode} at start; see {self.log_path}"
                )
            try:
                if ready():
                    return
            except NOT_YET:
                pass
            time.sleep(0.3)
        self.stop()
        raise SystemExit(f"loadtest: {self.name} not ready within {timeout:.0f}s; see {self.log_path}")

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def cpu_seconds(self) -> float:
        return process_cpu_seconds(self.proc.pid)

    def stop(self, grace: float = 15.0) -> None:
        if self.running:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log:
            self._log.close()
            self._log = None

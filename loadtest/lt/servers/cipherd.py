"""Starts cipherd for a campaign: free ports on 127.0.0.1, fresh data dir and password, GC log and JFR."""

import os
import secrets
import subprocess
import tempfile
import urllib.request
from pathlib import Path

from .process import HOST, ManagedProcess, free_port

# The recording's CPU-time samples (JDK 25, JEP 509) come every this much of a thread's CPU; each stands for
# this much in lt/report/jfr_shapes.py.
CPU_SAMPLE_PERIOD_MS = 2.0

JFR_NAME = "cipherd-loadtest"


class Cipherd:
    """cipherd from the jar, embedded key store in a temporary data dir, its logs in `results`. Restarted
    (`restart`), it is a new JVM on the same ports, data dir and keys, its GC log and recording in new files
    (`recordings`)."""

    def __init__(
        self,
        java: Path,
        jar: Path,
        results: Path,
        extra_jvm: list[str],
        log_level: str = "WARN",
        extra_args: list[str] | None = None,
    ):
        self.results = results
        self.port = free_port()
        self.http_port = free_port()
        self.tmp = tempfile.TemporaryDirectory(prefix="cipherd-loadtest-")
        self.extra_jvm = list(extra_jvm)
        self.starts = 0
        self.log_level = log_level
        # server arguments after the runner's own; {tmp} stands for this server's temporary folder
        self.extra_args = [a.replace("{tmp}", self.tmp.name) for a in extra_args or []]
        self.java, self.jar = str(java), str(jar)
        self.process = ManagedProcess("cipherd", results / "server.log")

    @property
    def target(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{HOST}:{self.http_port}/metrics"

    def _this_starts(self, stem: str, suffix: str) -> Path:
        """The file of the JVM started last: `stem``suffix` for the first, `stem`-2`suffix`, … after."""
        return self.results / (f"{stem}{suffix}" if self.starts <= 1 else f"{stem}-{self.starts}{suffix}")

    def recording(self) -> Path:
        """The JFR recording of the JVM started last: cipherd.jfr, then cipherd-2.jfr, …"""
        return self._this_starts("cipherd", ".jfr")

    def jvm_flags(self) -> list[str]:
        gc_log = self._this_starts("gc", ".log")
        return [
            *self.extra_jvm,
            f"-Xlog:gc*:file={gc_log}:time,uptime,level,tags",
            # and JDK 25's CPU-time sampler (JEP 509, Linux): every 2 ms of a thread's CPU, native and VM
            # code included, which execution samples miss (lt/report/jfr_shapes.py)
            f"-XX:StartFlightRecording=name={JFR_NAME},filename={self.recording()},settings=profile,"
            f"jdk.CPUTimeSample#enabled=true,jdk.CPUTimeSample#throttle={CPU_SAMPLE_PERIOD_MS:g}ms",
        ]

    def start(self, timeout: float = 60.0) -> None:
        data = Path(self.tmp.name) / "data"
        password = Path(self.tmp.name) / "keystore-password"
        if not password.exists():  # a restart opens the same key store
            password.write_text(secrets.token_urlsafe(32))
            password.chmod(0o600)
        self.starts += 1
        cmd = [
            self.java,
            *self.jvm_flags(),
            "-jar",
            self.jar,
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--http-port",
            str(self.http_port),
            "--data-dir",
            str(data),
            "--keystore-password-file",
            str(password),
            *self.extra_args,
        ]
        # WARN by default: at INFO every call writes an access-log line, and the run would measure the logger
        self.process.launch(cmd, env={**os.environ, "CIPHERD_LOG_LEVEL": self.log_level})
        self.process.wait_ready(self._ready, timeout)

    def _ready(self) -> bool:
        with urllib.request.urlopen(f"http://{HOST}:{self.http_port}/readyz", timeout=2) as r:
            return r.status == 200

    def cpu_seconds(self) -> float:
        return self.process.cpu_seconds()

    def dump_jfr(self) -> None:
        """Writes the recording with jcmd before the stop. cipherd exits through System.exit(0), so JFR's
        own dump on exit runs as well; this explicit dump is kept as harmless and explicit."""
        jcmd = Path(self.java).parent / "jcmd"
        r = subprocess.run(
            [
                str(jcmd),
                str(self.process.proc.pid),
                "JFR.dump",
                f"name={JFR_NAME}",
                f"filename={self.recording()}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        if r.returncode != 0:
            print(f"loadtest: JFR dump failed: {r.stdout.strip()[-300:]}", flush=True)

    def halt(self, grace: float = 30.0) -> None:
        """Stops the JVM, its recording written, its data dir kept."""
        if self.process.running:
            try:
                self.dump_jfr()
            except (OSError, subprocess.TimeoutExpired) as e:
                print(f"loadtest: JFR dump failed: {e}", flush=True)
        self.process.stop(grace)

    def restart(self, timeout: float = 60.0) -> None:
        """A new JVM on the same ports, data dir and keys: nothing it compiled or cached is kept."""
        self.halt()
        self.start(timeout)

    def stop(self, grace: float = 30.0) -> None:
        self.halt(grace)
        self.tmp.cleanup()

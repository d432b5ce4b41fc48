"""Starts cipherd for a campaign: free ports on 127.0.0.1, fresh data dir and password, GC log and JFR."""
import os
import secrets
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

HOST = "127.0.0.1"
JFR_NAME = "cipherd-loadtest"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, java: Path, jar: Path, results: Path, extra_jvm: list[str], log_level: str = "WARN"):
        self.results = results
        self.port = free_port()
        self.http_port = free_port()
        self.tmp = tempfile.TemporaryDirectory(prefix="cipherd-loadtest-")
        self.jvm_flags = [
            *extra_jvm,
            f"-Xlog:gc*:file={results / 'gc.log'}:time,uptime,level,tags",
            f"-XX:StartFlightRecording=name={JFR_NAME},filename={results / 'cipherd.jfr'},settings=profile",
        ]
        self.log_level = log_level
        self.java, self.jar = str(java), str(jar)
        self.proc = None
        self.log = None

    @property
    def target(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def metrics_url(self) -> str:
        return f"http://{HOST}:{self.http_port}/metrics"

    def start(self, timeout: float = 60.0) -> None:
        data = Path(self.tmp.name) / "data"
        password = Path(self.tmp.name) / "keystore-password"
        password.write_text(secrets.token_urlsafe(32))
        password.chmod(0o600)
        cmd = [self.java, *self.jvm_flags, "-jar", self.jar, "--host", HOST,
               "--port", str(self.port), "--http-port", str(self.http_port),
               "--data-dir", str(data), "--keystore-password-file", str(password)]
        self.log = open(self.results / "server.log", "w")
        # WARN by default: at INFO every call writes an access-log line, and the run would measure the logger
        env = {**os.environ, "CIPHERD_LOG_LEVEL": self.log_level}
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"loadtest: cipherd exited with {self.proc.returncode} at start; "
                                 f"see {self.results / 'server.log'}")
            try:
                with urllib.request.urlopen(f"http://{HOST}:{self.http_port}/readyz", timeout=2) as r:
                    if r.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.3)
        self.stop()
        raise SystemExit(f"loadtest: cipherd not ready within {timeout:.0f}s; see {self.results / 'server.log'}")

    def cpu_seconds(self) -> float:
        return proc_cpu_seconds(self.proc.pid)

    def dump_jfr(self) -> None:
        """Writes the recording with jcmd before the stop. cipherd exits through System.exit(0), so JFR's
        own dump on exit runs as well; this explicit dump is kept as harmless and explicit."""
        jcmd = Path(self.java).parent / "jcmd"
        r = subprocess.run([str(jcmd), str(self.proc.pid), "JFR.dump", f"name={JFR_NAME}",
                            f"filename={self.results / 'cipherd.jfr'}"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
        if r.returncode != 0:
            print(f"loadtest: JFR dump failed: {r.stdout.strip()[-300:]}", flush=True)

    def stop(self, grace: float = 30.0) -> None:
        if self.proc and self.proc.poll() is None:
            try:
                self.dump_jfr()
            except (OSError, subprocess.TimeoutExpired) as e:
                print(f"loadtest: JFR dump failed: {e}", flush=True)
            self.proc.send_signal(signal.SIGTERM)   # graceful: JFR is dumped on exit
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.log:
            self.log.close()
        self.tmp.cleanup()

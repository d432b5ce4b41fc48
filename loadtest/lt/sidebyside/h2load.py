"""Runs h2load once (bounded), with its CPU time from wait4's rusage, and parses what it prints and logs.

h2load (nghttp2) reports throughput and status codes but only min/max/mean/sd of request times, so
each run writes `--log-file` (one line per request: start time µs, HTTP status, duration µs) and the
percentiles come from there. With `-D` and `--warm-up-time` the log and the counts hold only the
measured phase. h2load sees HTTP status only: gRPC errors are HTTP 200 with `grpc-status` in trailers,
so the caller checks those another way (the server's counters).
"""

import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .. import tools
from ..servers.process import run_bounded

GRPC_HEADERS = ["content-type: application/grpc", "te: trailers"]


@dataclass
class Spec:
    url: str
    body: Path
    clients: int
    duration_s: float
    warmup_s: float = 1.0
    headers: list = field(default_factory=list)
    h1: bool = False  # HTTP/1.1 (Vault); otherwise h2c with prior knowledge (gRPC)


def install() -> str:
    """Path of h2load, from .ci/install-h2load (Debian's nghttp2-client, unpacked once, no root)."""
    r = subprocess.run([str(tools.REPO / ".ci" / "install-h2load")], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise SystemExit("loadtest: could not install h2load (.ci/install-h2load); see the message above")
    return r.stdout.strip().splitlines()[-1]


def duration_arg(seconds: float) -> str:
    """h2load's -D and --warm-up-time take whole numbers with a unit ("1.5" is a value error): milliseconds."""
    return f"{max(0, round(seconds * 1000))}ms"


def command(h2load: str, spec: Spec, log_file: Path) -> list[str]:
    cmd = [
        h2load,
        "-c",
        str(spec.clients),
        "-m",
        "1",
        "-t",
        "1",
        "-D",
        duration_arg(spec.duration_s),
        "--warm-up-time",
        duration_arg(spec.warmup_s),
        "-d",
        str(spec.body),
        "--log-file",
        str(log_file),
    ]
    if spec.h1:
        cmd.append("--h1")
    for h in spec.headers:
        cmd += ["-H", h]
    return cmd + [spec.url]


def redact(cmd: list[str], secrets_: tuple = ()) -> list[str]:
    """The command with the given secrets and any X-Vault-Token header value replaced, fit to record."""
    out = []
    for part in cmd:
        for s in secrets_:
            part = part.replace(s, "<redacted>")
        if part.lower().startswith("x-vault-token:"):
            part = "X-Vault-Token: <redacted>"
        out.append(part)
    return out


def run(h2load: str, spec: Spec, log_file: Path, out_file: Path, grace_s: float = 60.0) -> dict:
    """Runs h2load, killed after its duration + warm-up + grace_s; returns parsed figures + client facts."""
    cmd = command(h2load, spec, log_file)
    with open(out_file, "w") as out:
        run = run_bounded(cmd, out, subprocess.STDOUT, spec.duration_s + spec.warmup_s + grace_s)
    text = out_file.read_text(errors="replace")
    figures = parse_output(text)
    figures["client"] = {
        "wall_s": run.wall_s,
        "cpu_s": run.cpu_s,
        "max_rss_kib": run.max_rss_kib,
        "exit_code": run.exit_code,
        "killed": run.killed,
    }
    return figures


_FINISHED = re.compile(r"^finished in ([\d.]+)(ms|s|us), ([\d.]+) req/s", re.M)
_REQUESTS = re.compile(
    r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
    r"(\d+) errored, (\d+) timeout",
    re.M,
)
_STATUS = re.compile(r"^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", re.M)
_TIME = re.compile(r"^time for request:\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)", re.M)
_UNIT_MS = {"us": 1e-3, "ms": 1.0, "s": 1e3}


def _ms(text: str) -> float:
    m = re.fullmatch(r"([\d.]+)(us|ms|s)", text)
    if not m:
        raise ValueError(f"not an h2load time: {text!r}")
    return float(m.group(1)) * _UNIT_MS[m.group(2)]


def parse_output(text: str) -> dict:
    """The figures h2load prints at the end: req/s, request counts, status classes, request time stats."""
    out = {}
    m = _FINISHED.search(text)
    if m:
        out["finished_s"] = float(m.group(1)) * _UNIT_MS[m.group(2)] / 1e3
        out["rps"] = float(m.group(3))
    m = _REQUESTS.search(text)
    if m:
        keys = ("total", "started", "done", "succeeded", "failed", "errored", "timeout")
        out["requests"] = dict(zip(keys, map(int, m.groups()), strict=True))
    m = _STATUS.search(text)
    if m:
        out["status"] = dict(zip(("2xx", "3xx", "4xx", "5xx"), map(int, m.groups()), strict=True))
    m = _TIME.search(text)
    if m:
        out["time_ms"] = dict(zip(("min", "max", "mean", "sd"), map(_ms, m.groups()), strict=True))
    return out


def read_log(path: Path) -> tuple[list[float], dict]:
    """Request durations in ms from an h2load --log-file, and the count per HTTP status."""
    durations, statuses = [], {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            statuses[parts[1]] = statuses.get(parts[1], 0) + 1
            durations.append(int(parts[2]) / 1e3)
    return durations, statuses


def percentile(values: list[float], pct: float, presorted: bool = False):
    """Nearest-rank percentile (the smallest value with at least pct % of values at or below it)."""
    if not values:
        return None
    v = values if presorted else sorted(values)
    rank = max(1, -(-len(v) * pct // 100))  # ceil(n * pct / 100), at least 1
    return v[int(rank) - 1]


def latency(durations: list[float]) -> dict:
    v = sorted(durations)
    return {f"p{p}_ms": percentile(v, p, presorted=True) for p in (50, 90, 99)} | {"max_ms": v[-1] if v else None}

"""The JCE's own cost per operation, measured in the same sitting as the side-by-side (issue 21): JMH's
`JceGcmFloorBenchmark` (AES-256-GCM, 100 B, one Cipher per thread, preallocated arrays: the provider and
nothing of ours) run through the server's Maven wrapper with the JDK the servers use, its `-rf json` read
back as ns/op per benchmark (`JceCost`), with JMH's GC profiler (`-prof gc`, always added) for the
provider's own allocation per operation (`gc.alloc.rate.norm`, B/op). The run is bounded; a failure is
recorded with its reason, never raised: the floor is then "not measured" and `--check` says why."""

import json
import os
import shlex
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import tools
from ..rows import JsonRow

BENCHMARK = "JceGcmFloorBenchmark"
METHODS = ("encrypt", "decrypt", "drbgNonce")  # seal, open, and the DRBG nonce for the record
FLOOR_OPS = ("encrypt", "decrypt")  # what a shape's floor may count (Shape.jce_ops)
DEFAULT_ARGS = "-wi 2 -w 1 -i 3 -r 1 -f 1"  # about 20 s of measurement, plus the fork and Maven
TIMEOUT_S = 600.0  # Maven's test-compile on a fresh clone included
GC_PROFILER = "-prof gc"  # added to the command: the provider's own B/op
ALLOC_NORM = "gc.alloc.rate.norm"  # the GC profiler's bytes allocated per operation


@dataclass(frozen=True)
class JceCost(JsonRow):
    """ns/op per benchmark method; `error` says why there are none (then every floor is not measured)."""

    ns_per_op: dict  # method -> JMH's score (AverageTime, ns/op)
    error_ns: dict  # method -> JMH's 99.9 % half-width; None where it cannot tell (few iterations)
    jdk: str | None  # the JDK the benchmark ran on, as JMH reports it
    jmh_args: str
    command: str
    elapsed_s: float
    error: str | None = None
    # method -> JMH's gc.alloc.rate.norm (B/op); a method is absent when JMH did not report it (a run without
    # -prof gc, a summary.json from before it)
    alloc_bytes_per_op: dict = field(default_factory=dict)

    @property
    def measured(self) -> bool:
        return self.error is None and all(m in self.ns_per_op for m in FLOOR_OPS)

    def us_per_item(self, ops: tuple) -> float | None:
        """µs of JCE work for one item doing `ops` (a rewrap: decrypt + encrypt); None when not measured."""
        if not self.measured or not ops or any(op not in self.ns_per_op for op in ops):
            return None
        return sum(self.ns_per_op[op] for op in ops) / 1000.0

    def bytes_per_item(self, ops: tuple) -> float | None:
        """Bytes the provider allocates for one item doing `ops`; None when not measured or not reported."""
        if not self.measured or not ops or any(op not in self.alloc_bytes_per_op for op in ops):
            return None
        return sum(self.alloc_bytes_per_op[op] for op in ops)


def number(v) -> float | None:
    """A JMH JSON figure: a number, or the string "NaN" it writes when it cannot tell."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return None
    return None if f != f else f


def alloc_norm(result: dict) -> float | None:
    """A result's gc.alloc.rate.norm in B/op (JMH before 1.36 named it `·gc.alloc.rate.norm`); None when
    JMH did not report it, or not in B/op, or as NaN."""
    secondary = {str(k).lstrip("·"): v for k, v in (result.get("secondaryMetrics") or {}).items()}
    metric = secondary.get(ALLOC_NORM)
    if not isinstance(metric, dict) or metric.get("scoreUnit", "B/op") != "B/op":
        return None
    score = number(metric.get("score"))
    return score if score is not None and score >= 0 else None


def parse_alloc(text: str) -> dict:
    """B/op per method of METHODS from the same JSON (parse() has already vetted it); methods JMH gave no
    gc.alloc.rate.norm for are absent."""
    out = {}
    for r in json.loads(text):
        method = str(r.get("benchmark", "")).rpartition(".")[2]
        if str(r.get("benchmark", "")).endswith(f"{BENCHMARK}.{method}") and method in METHODS:
            b = alloc_norm(r)
            if b is not None:
                out[method] = b
    return {m: out[m] for m in METHODS if m in out}


def parse(text: str) -> tuple[dict, dict, str | None]:
    """JMH's `-rf json` of JceGcmFloorBenchmark -> (ns/op per method, error per method, JDK version).
    ValueError when it is not JMH's JSON, a figure is not ns/op, or a method of METHODS is missing.
    (The B/op of `-prof gc`: parse_alloc.)"""
    try:
        results = json.loads(text)
    except json.JSONDecodeError as e:
        raise ValueError(f"JMH's JSON does not parse: {e}") from None
    if not isinstance(results, list):
        raise ValueError("JMH's JSON is not a list of results")
    ns, err, jdk = {}, {}, None
    for r in results:
        method = str(r.get("benchmark", "")).rpartition(".")[2]
        if not str(r.get("benchmark", "")).endswith(f"{BENCHMARK}.{method}") or method not in METHODS:
            continue
        metric = r.get("primaryMetric") or {}
        if r.get("mode") != "avgt" or metric.get("scoreUnit") != "ns/op":
            raise ValueError(f"{method}: expected avgt in ns/op, got {r.get('mode')} in {metric.get('scoreUnit')}")
        score = number(metric.get("score"))
        if score is None or score <= 0:
            raise ValueError(f"{method}: no score ({metric.get('score')})")
        ns[method], err[method] = score, number(metric.get("scoreError"))
        jdk = r.get("vmVersion") or r.get("jdkVersion") or jdk
    missing = [m for m in METHODS if m not in ns]
    if missing:
        raise ValueError(f"JMH's JSON lacks {', '.join(missing)}")
    return {m: ns[m] for m in METHODS}, {m: err[m] for m in METHODS}, jdk  # in METHODS' order


def exec_args(jvm_flags: list[str], jmh_args: str, json_file: Path) -> str:
    """What exec:exec runs (the Makefile's `bench` target, with the GC profiler and JMH's JSON output)."""
    include = f"{BENCHMARK}.({'|'.join(METHODS)})$"  # a regex; no backslash through exec.args' parsing
    prof = [] if GC_PROFILER in " ".join(jmh_args.split()) else [GC_PROFILER]  # once, even if the user gave it
    return " ".join(
        [
            *jvm_flags,
            "-cp",
            "%classpath",
            "org.openjdk.jmh.Main",
            include,
            jmh_args,
            *prof,
            "-rf",
            "json",
            "-rff",
            str(json_file),
        ]
    )


def command(jvm_flags: list[str], jmh_args: str, json_file: Path) -> list[str]:
    return [
        str(tools.REPO / "server" / "mvnw"),
        "-B",
        "-q",
        "--no-transfer-progress",
        "test-compile",
        "exec:exec",
        f"-Dexec.args={exec_args(jvm_flags, jmh_args, json_file)}",
    ]


def failed(why: str, jmh_args: str, cmd: list[str], start: float) -> JceCost:
    return JceCost(
        ns_per_op={},
        error_ns={},
        jdk=None,
        jmh_args=jmh_args,
        command=shlex.join(cmd),
        elapsed_s=time.monotonic() - start,
        error=why,
    )


def run(
    java_home: Path, jvm_flags: list[str], out_dir: Path, jmh_args: str = DEFAULT_ARGS, timeout_s: float = TIMEOUT_S
) -> JceCost:
    """Runs the benchmark with JAVA_HOME=java_home (Maven's exec plugin runs ${java.home}/bin/java) and the
    servers' extra JVM flags, Maven's and JMH's output in out_dir/jmh-floor.out.txt, JMH's JSON in
    out_dir/jmh-floor.json. Killed, with Maven and JMH's fork, after timeout_s."""
    # Absolute: JMH runs in server/, and --out may be relative to where the runner was started.
    json_file, log = (out_dir / "jmh-floor.json").resolve(), (out_dir / "jmh-floor.out.txt").resolve()
    json_file.unlink(missing_ok=True)
    cmd = command(jvm_flags, jmh_args, json_file)
    env = dict(
        os.environ,
        JAVA_HOME=str(java_home),
        MAVEN_OPTS=" ".join(f for f in jvm_flags if f.startswith("--sun-misc-unsafe")),
    )
    start = time.monotonic()
    print(f"loadtest: JMH {BENCHMARK} ({jmh_args}) for the floor", flush=True)
    with open(log, "w") as out:
        proc = subprocess.Popen(
            cmd, cwd=tools.REPO / "server", env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )  # its own process group: Maven and JMH's fork
        try:
            code = proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return failed(f"JMH still running after {timeout_s:g} s, killed (see {log.name})", jmh_args, cmd, start)
    if code != 0:
        tail = " ".join(log.read_text(errors="replace").split()[-30:])
        return failed(f"JMH exited {code} (see {log.name}): …{tail}", jmh_args, cmd, start)
    text = json_file.read_text() if json_file.exists() else ""
    try:
        ns, err, jdk = parse(text)
    except ValueError as e:
        return failed(f"{e} (see {json_file.name})", jmh_args, cmd, start)
    return JceCost(
        ns_per_op=ns,
        error_ns=err,
        jdk=jdk,
        jmh_args=jmh_args,
        command=shlex.join(cmd),
        elapsed_s=time.monotonic() - start,
        alloc_bytes_per_op=parse_alloc(text),
    )

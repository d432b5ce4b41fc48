"""The h2load side-by-side (issue 4): Vault Transit, the bare grpc-java echo ceiling and cipherd, in one
run, with the same client, payload, concurrency and (for echo and cipherd) the very same request bodies;
with --baseline-jar a second cipherd too. First, JMH measures the JCE's own cost for the floor (issue 21). The servers of --sbs-targets are started here and warmed up,
then measured shape by shape, back to back, and all stopped on the way out (an ExitStack). Writes
<out>/sidebyside/ and returns the section for summary.json."""

import contextlib
import dataclasses
import hashlib
import shlex
import subprocess
import time
from pathlib import Path

from .. import rows as rows_json
from ..measure import cpu
from ..servers import echo
from . import (
    baseline,
    cipherd_target,
    cold_subjects,
    echo_target,
    floor,
    floor_goals,
    goals,
    h2load,
    jce,
    lineup,
    vault_target,
)
from .rounds import median_rounds
from .row import SbsRow, row_figures
from .shapes import PAYLOAD_BYTES, Shape, payload
from .target import Target

NOTES = [
    "Vault Transit has no gRPC: it gets `h2load --h1` (HTTP/1.1 keep-alive, one request per connection at a "
    "time) with JSON bodies; DecryptBatch's counterpart is `/v1/transit/decrypt` and ReEncryptBatch's "
    "`/v1/transit/rewrap`, both with `batch_input`; ReEncryptStream has none.",
    "h2load sees HTTP status only. Each body was sent once with grpcio (status OK, 256 results, no item "
    "errors), and per run cipherd's `grpc_server_processing_duration_seconds_count` per `statusCode` and "
    "`cipherd_crypto_operations_total` outcomes were read before and after; echo's calls are counted by the "
    "service itself. Vault's replies were checked with urllib (no per-item `error`).",
    "ReEncryptStream-256: one bidi stream per h2load request, whose body carries 256 length-prefixed "
    "ReEncryptStreamRequest messages; req/s counts streams, items/s messages.",
    "p50/p99 are from h2load's `--log-file` (the measured phase only). Allocation per call includes the "
    "run's h2load warm-up calls on both sides of the division; echo's is `getTotalThreadAllocatedBytes` "
    "(every thread, JFR's own included), cipherd's Micrometer's young-generation count plus eden; close, not "
    "identical measures. Echo's is the floor the gRPC stack costs with these shapes.",
]


def order_note(servers: tuple[str, ...], fresh: bool = False) -> str:
    """How the runs were ordered, for the report's notes."""
    text = (
        "Order: the servers run side by side (idle when not measured), warmed up, then per "
        f"shape {', '.join(lineup.order(servers, 1))} back to back"
    )
    if lineup.BASELINE in servers:
        text += (
            "; cipherd and cipherd-baseline swap places every round (cipherd first in odd rounds), so neither "
            "always runs on the machine the other has just warmed"
        )
    if fresh:
        text += (
            "; before every round after the first, cipherd"
            + (" and cipherd-baseline were" if lineup.BASELINE in servers else " was")
            + " restarted and warmed up again (--sbs-fresh-servers): each round measured JVMs of its own"
        )
    return text + "."


def notes(servers: tuple[str, ...], fresh: bool = False) -> list[str]:
    """The report's standing notes for the servers that ran."""
    kept = [n for n in NOTES if lineup.VAULT in servers or not n.startswith("Vault")]
    return kept + [order_note(servers, fresh)]


def jar_facts(jar: Path) -> dict:
    """Where a jar is and what it is (its SHA-256), so a comparison says which build it measured."""
    return {"path": str(jar), "sha256": hashlib.sha256(jar.read_bytes()).hexdigest()}


class Context:
    """What the side-by-side's steps share: settings, its folder, the bodies, the rows so far."""

    def __init__(self, args, out: Path, java: Path, jar: Path, extra_jvm: list[str], cores: int):
        self.args, self.java, self.jar, self.extra_jvm, self.cores = args, java, jar, extra_jvm, cores
        self.dir = out / "sidebyside"
        (self.dir / "runs").mkdir(parents=True, exist_ok=True)
        (self.dir / "bodies").mkdir(exist_ok=True)
        self.h2load = h2load.install()
        self.rows: list[SbsRow] = []
        self.notes: list[str] = []
        self.checks: dict = {}
        self.messages: dict[str, list[bytes]] = {}  # cipherd's request messages per shape
        self.files: dict[str, Path] = {}  # their framed body files
        self.cipherd_address = ""  # the build's cipherd, host:port

    def body_file(self, name: str, data: bytes) -> Path:
        p = self.dir / "bodies" / name
        p.write_bytes(data)
        return p


def thread_deltas(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """The CPU seconds each kind of thread spent between two readings, those that spent any."""
    spent = {kind: round(s - before.get(kind, 0.0), 3) for kind, s in after.items()}
    return {kind: s for kind, s in sorted(spent.items(), key=lambda kv: -kv[1]) if s > 0}


def measure(ctx: Context, t: Target, shape: Shape, rnd: int) -> None:
    """One measured h2load run: CPU around it, the server's own figures from t.before() / t.after()."""
    name = f"{t.name}-{shape.name}" + (f"-r{rnd}" if ctx.args.sbs_rounds > 1 else "")
    rdir = ctx.dir / "runs"
    spec = t.specs[shape.name]
    b = t.before()
    threads0 = t.thread_cpu() if t.thread_cpu else None
    cpu0, sys0 = t.cpu_seconds(), cpu.busy_seconds()
    h2 = h2load.run(ctx.h2load, spec, rdir / f"{name}.log", rdir / f"{name}.out.txt")
    cpu1, sys1 = t.cpu_seconds(), cpu.busy_seconds()
    threads1 = t.thread_cpu() if t.thread_cpu else None
    server = t.after(b, shape)
    durations, statuses = h2load.read_log(rdir / f"{name}.log")
    command = shlex.join(h2load.redact(h2load.command("h2load", spec, Path(f"{name}.log"))))
    row = row_figures(
        t.name,
        shape,
        h2,
        h2load.latency(durations),
        statuses,
        cpu1 - cpu0,
        sys1 - sys0,
        ctx.cores,
        server,
        round_no=rnd,
        command=command,
    )
    if threads0 is not None and threads1 is not None:
        row = dataclasses.replace(row, server_thread_cpu_s=thread_deltas(threads0, threads1))
    rows_json.write(rdir / f"{name}.row.json", row, indent=1)
    (rdir / f"{name}.log").unlink(missing_ok=True)  # large; its percentiles are in the row
    flag = "" if row.valid else f"  ERRORS: {row.problem}"
    print(
        f"loadtest: sbs {name:42s} {row.rps:10.0f} req/s {row.items_per_s:12.0f} items/s  "
        f"p99 {row.p99_ms or 0:7.2f} ms  h2load {row.h2load_cores:.2f} / server "
        f"{row.server_cores:.2f} cores{flag}",
        flush=True,
    )
    ctx.rows.append(row)
    time.sleep(0.5)


def warm(ctx: Context, t: Target) -> None:
    """Each shape the target has, for its share of --sbs-warmup among those shapes (the seconds are
    the server's in all, whichever shapes were chosen), not recorded."""
    shapes = [s for s in ctx.args.sbs_shapes if s.name in t.specs and s.warmup_share > 0]
    total = sum(s.warmup_share for s in shapes)
    for shape in shapes:
        secs = ctx.args.sbs_warmup * shape.warmup_share / total
        if secs <= 0:
            continue
        s = t.specs[shape.name]
        spec = h2load.Spec(s.url, s.body, s.clients, secs, 0.5, s.headers, s.h1)
        out = ctx.dir / "runs" / "warmup.out.txt"
        h2 = h2load.run(ctx.h2load, spec, Path("/dev/null"), out)
        if not (h2.get("requests") or {}).get("succeeded"):
            raise SystemExit(f"loadtest: warm-up of {s.url} failed: {out.read_text()[-300:].strip()}")


def refresh(ctx: Context, targets: list[Target]) -> None:
    """Each restartable target a new process, warmed up as at the start (--sbs-fresh-servers)."""
    for t in targets:
        if t.restart is not None:
            t.restart()
            warm(ctx, t)


def run(args, out: Path, java: Path, jar: Path, extra_jvm: list[str], cores: int) -> dict:
    start = time.monotonic()
    ctx = Context(args, out, java, jar, extra_jvm, cores)
    servers = args.sbs_targets
    versions = echo.build(java.parent.parent) if lineup.ECHO in servers else echo.server_versions()
    version = subprocess.run([ctx.h2load, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    plaintext = payload()
    print(f"loadtest: side-by-side with {version}, {args.sbs_duration:g} s per run", flush=True)
    # the JCE's own cost per item, in this sitting and on the servers' JDK, before any server runs
    jce_cost = jce.run(java.parent.parent, extra_jvm, ctx.dir, args.sbs_jmh_args)
    print(
        "loadtest: JCE "
        + (
            f"not measured: {jce_cost.error}"
            if jce_cost.error
            else ", ".join(f"{m} {v:.0f} ns/op" for m, v in jce_cost.ns_per_op.items())
        ),
        flush=True,
    )
    with contextlib.ExitStack() as stack:  # every server is stopped, whatever happens
        # cipherd is set up first: its request bodies (and v1 ciphertexts) are the ones echo gets too
        started = {lineup.CIPHERD: cipherd_target.start(ctx, plaintext, stack)}
        if lineup.BASELINE in servers:
            started[lineup.BASELINE] = cipherd_target.start(ctx, plaintext, stack, lineup.BASELINE, args.baseline_jar)
        if lineup.VAULT in servers:
            started[lineup.VAULT] = vault_target.start(ctx, plaintext, stack)
        if lineup.ECHO in servers:
            started[lineup.ECHO] = echo_target.start(ctx, stack)
        for name in servers:
            warm(ctx, started[name])
        print(f"loadtest: side-by-side servers up and warm after {time.monotonic() - start:.0f} s", flush=True)
        # shape by shape, the servers back to back: what else runs on the machine drifts less between them;
        # with --sbs-rounds N all of it N times, and the report takes each one's median round
        for rnd in range(1, args.sbs_rounds + 1):
            targets = [started[name] for name in lineup.order(servers, rnd)]
            if rnd > 1 and args.sbs_fresh_servers:
                refresh(ctx, targets)
            for shape in args.sbs_shapes:
                for t in targets:
                    if shape.name in t.specs:
                        measure(ctx, t, shape, rnd)
        cold = None
        if args.sbs_cold_subjects:
            cold = cold_subjects.measure(
                ctx.cipherd_address, args.sbs_cold_subjects, args.sbs_subject_cache_size, plaintext
            )
            print(f"loadtest: {cold_subjects.line(cold)}", flush=True)
    rows = median_rounds(ctx.rows)
    fresh = bool(args.sbs_fresh_servers and args.sbs_rounds > 1)
    chosen = list(args.sbs_shapes)
    names = [s.name for s in chosen]
    floors = floor.floors(rows, jce_cost, chosen)
    section = {
        "duration_s": args.sbs_duration,
        "h2load_warmup_s": args.sbs_h2load_warmup,
        "warmup_s": args.sbs_warmup,
        "payload_bytes": PAYLOAD_BYTES,
        "h2load_version": version,
        "versions": versions,
        "shapes": chosen,
        "rounds": args.sbs_rounds,
        "fresh_servers": fresh,
        "rows": rows,
        "all_rounds": ctx.rows if args.sbs_rounds > 1 else [],
        "checks": ctx.checks,
        "ratios": goals.ratios(rows, names),
        "targets": goals.check_goals(rows),
        "subject_ratios": goals.subject_ratios(ctx.rows, chosen),
        "cold_subjects": cold,
        "servers": list(servers),
        "baseline": baseline.ratios(rows, names),
        "baseline_jar": jar_facts(args.baseline_jar) if args.baseline_jar else None,
        "server_args": {"cipherd": args.server_arg, "baseline": args.baseline_server_arg},
        "jce": jce_cost,
        "floor": floors,
        "stream_overhead": floor.stream_overhead(rows),
        "floor_targets": floor_goals.check(rows, floors),
        "notes": ctx.notes + notes(servers, fresh),
        "elapsed_s": time.monotonic() - start,
    }
    rows_json.write(ctx.dir / "sidebyside.json", section)
    return section

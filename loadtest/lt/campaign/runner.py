"""Runs the selected campaign families against one freshly started cipherd: keys and fixtures first,
warm-up traffic, then each run between two /metrics scrapes and CPU readings."""

import dataclasses
import time
from pathlib import Path

from .. import tools
from ..measure import cpu, gclog, prom
from ..servers.cipherd import Cipherd
from ..servers.remote import RemoteCipherd
from . import fixtures, ghz
from .families import Family, Run
from .figures import RunFigures, run_figures
from .grpcurl import Caller


def run_families(
    server: "Cipherd | RemoteCipherd", families: list[Family], args, out: Path, cores: int
) -> list[RunFigures]:
    ghz_bin = tools.go_tool(*tools.GHZ)
    grpcurl = tools.go_tool(*tools.GRPCURL)
    rows = []
    server.start()
    try:
        ciphertexts = prepare(server, grpcurl, families)
        warm_up(ghz_bin, server, families, ciphertexts, args, out)
        for fam in families:
            for r in fam.runs:
                rows.append(one_run(ghz_bin, server, r, ciphertexts, args, out, cores))
    finally:
        server.stop()
    return rows


def prepare(server: "Cipherd | RemoteCipherd", grpcurl: str, families: list[Family]) -> dict:
    """Creates every key, makes the ciphertexts runs need, then rotates keys marked for it."""
    caller = Caller(grpcurl, server.target)
    keys = {}
    for f in families:
        for k in f.keys:
            keys.setdefault(k["key_name"], k)
    reuse = isinstance(server, RemoteCipherd)  # a deployment keeps the keys of earlier campaigns
    for spec in keys.values():
        caller.create_key(spec, reuse)
    wanted = set().union(*(r.fixtures for f in families for r in f.runs))
    ciphertexts = {(k, n): caller.encrypt(k, fixtures.payload_b64(n)) for k, n in sorted(wanted)}
    for spec in keys.values():
        if spec.get("rotate_after_fixtures"):
            caller.rotate_key(spec)
    print(f"loadtest: {len(keys)} keys, {len(ciphertexts)} fixture ciphertexts", flush=True)
    return ciphertexts


def warm_up(
    ghz_bin: str, server: "Cipherd | RemoteCipherd", families: list[Family], ciphertexts: dict, args, out: Path
) -> None:
    """Traffic before the first run (each family's first run, split evenly), not recorded."""
    if args.warmup <= 0:
        return
    wdir = out / "warmup"
    wdir.mkdir(exist_ok=True)
    per = args.warmup / len(families)
    for f in families:
        r = f.runs[0]
        cfg = ghz.config(
            fixtures.resolve(r.ghz, ciphertexts), server.target, per, 0, wdir / f"{r.name}.json", r.name, r.tags
        )
        ghz.run(ghz_bin, cfg, wdir / f"{r.name}.config.json", per)
    print(f"loadtest: warmed up for {args.warmup:g}s", flush=True)


def with_logged_pauses(row: RunFigures, logged: "gclog.Pauses | None") -> RunFigures:
    """The run's GC pause maximum from gc.log by its time window, where the server's log is at hand (a server
    this runner started); Micrometer's decaying maximum otherwise."""
    if logged is None or not row.valid:
        return row
    return dataclasses.replace(row, gc_pause_max_ms=logged.max_ms, gc_pause_max_source="gc.log")


def one_run(
    ghz_bin: str, server: "Cipherd | RemoteCipherd", r: Run, ciphertexts: dict, args, out: Path, cores: int
) -> RunFigures:
    rdir = out / "runs"
    skip = max(20, args.skip_first // r.items_per_call)
    cfg = ghz.config(
        fixtures.resolve(r.ghz, ciphertexts),
        server.target,
        args.duration,
        skip,
        rdir / f"{r.name}.ghz.json",
        r.name,
        r.tags,
    )
    before_text = prom.scrape(server.metrics_url)
    cpu0, sys0, t0 = server.cpu_seconds(), cpu.busy_seconds(), time.time()
    result = ghz.run(ghz_bin, cfg, rdir / f"{r.name}.config.json", args.duration)
    cpu1, sys1, t1 = server.cpu_seconds(), cpu.busy_seconds(), time.time()
    after_text = prom.scrape(server.metrics_url)
    (rdir / f"{r.name}.metrics-before.txt").write_text(before_text)
    (rdir / f"{r.name}.metrics-after.txt").write_text(after_text)
    row = run_figures(r, result, prom.parse(before_text), prom.parse(after_text), cpu1 - cpu0, cores, sys1 - sys0)
    row = with_logged_pauses(row, gclog.pauses(out / "gc.log", t0, t1))
    flag = "" if row.valid else f"  ERRORS: {row.problem}"
    if args.no_throughput:
        print(
            f"loadtest: {r.name:34s} {row.server_calls or 0:8.0f} server calls  {row.gc_count or 0:4.0f} GCs"
            f"  pause {row.gc_pause_total_ms or 0:7.1f} ms  alloc {row.alloc_per_call or 0:8.0f} B/call{flag}",
            flush=True,
        )
    else:
        print(
            f"loadtest: {r.name:34s} {row.rps or 0:10.0f} rpc/s {row.items_per_s or 0:12.0f} items/s"
            f"  p99 {row.p99_ms or 0:7.2f} ms  ghz {row.ghz_cores or 0:.2f} cores{flag}",
            flush=True,
        )
    time.sleep(0.5)
    return row

"""Command line: run campaigns (default) or compare two result folders."""
import json
import platform
import socket
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from . import calls, campaigns, cpu, derive, ghzrun, hostfacts, options, prom, report, sanity, tools
from .server import Server

RESULTS = Path(__file__).resolve().parents[1] / "results"


def main(argv) -> int:
    args = options.parse(argv)
    if args.compare:
        from . import compare
        out = compare.write(*args.compare)
        print(f"loadtest: comparison written to {out}")
        return 0
    if args.no_side_by_side and args.side_by_side_only:
        raise SystemExit("loadtest: --no-side-by-side and --side-by-side-only exclude each other")
    return run_campaigns(args)


def run_campaigns(args) -> int:
    families = [] if args.side_by_side_only else campaigns.select(args.campaigns, args.only)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or RESULTS / f"{stamp}-{platform.machine()}-{socket.gethostname()}"
    (out / "runs").mkdir(parents=True, exist_ok=True)
    jar = tools.build_jar(args.no_build)
    java = tools.jdk_home() / "bin" / "java"
    major = hostfacts.java_version(str(java))
    extra = list(args.jvm)
    if "sun-misc-unsafe" not in " ".join(extra) and any(f'"{v}' in major for v in ("23", "24", "25", "26")):
        extra.append("--sun-misc-unsafe-memory-access=allow")
    server = Server(java, jar, out, extra, args.server_log_level)
    facts = hostfacts.collect(str(java), server.jvm_flags, tools.git_commit())
    facts["server_log_level"] = args.server_log_level
    (out / "host.json").write_text(json.dumps(facts, indent=2))
    print(f"loadtest: results in {out}", flush=True)
    rows = _ghz_campaigns(server, families, args, out, facts) if families else []
    summary = {"host": facts, "settings": {"duration_s": args.duration, "skip_first": args.skip_first,
                                           "warmup_s": args.warmup},
               "families": {f.name: f.description for f in families}, "runs": rows}
    if not args.no_side_by_side:
        summary["side_by_side"] = _side_by_side(args, out, java, jar, extra, facts["cores"])
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    report.write(out, summary)
    print(f"loadtest: report in {out / 'report.md'}")
    bad = [r["name"] for r in rows if not r.get("valid")]
    bad += [f"{r['target']}-{r['shape']}" for r in summary.get("side_by_side", {}).get("rows", []) if not r["valid"]]
    if bad:
        print(f"loadtest: {len(bad)} run(s) had errors and do not count: {', '.join(bad)}", file=sys.stderr)
    if summary.get("side_by_side", {}).get("error"):
        print(f"loadtest: the side-by-side did not complete: {summary['side_by_side']['error']}", file=sys.stderr)
    if args.check:
        return _check(out, summary, [r.name for f in families for r in f.runs], not args.no_side_by_side)
    return 0


def _ghz_campaigns(server, families, args, out, facts) -> list[dict]:
    ghz = tools.go_tool(*tools.GHZ)
    grpcurl = tools.go_tool(*tools.GRPCURL)
    rows = []
    server.start()
    try:
        fixtures = _prepare(server, grpcurl, families)
        _warm_up(ghz, server, families, fixtures, args, out)
        for fam in families:
            for r in fam.runs:
                rows.append(_one_run(ghz, server, r, fixtures, args, out, facts["cores"]))
    finally:
        server.stop()
    return rows


def _side_by_side(args, out, java, jar, extra, cores) -> dict:
    """The h2load side-by-side; a failure there is reported and leaves the ghz results standing."""
    from . import sidebyside
    start = time.monotonic()
    try:
        section = sidebyside.run(args, out, java, jar, extra, cores)
    except SystemExit as e:
        return {"error": str(e), "elapsed_s": time.monotonic() - start}
    print(f"loadtest: side-by-side done in {section['elapsed_s']:.0f} s", flush=True)
    for t in section["targets"]:
        mark = "not measured" if t["met"] is None else "met" if t["met"] else "MISSED"
        print(f"loadtest: target {mark:12s} {t['target']}: {t['figure']}", flush=True)
    return section


def _check(out, summary, expected, side_by_side_expected) -> int:
    found = sanity.problems(out, summary, expected, side_by_side_expected)
    for p in found:
        print(f"loadtest: check failed: {p}", file=sys.stderr)
    if found:
        return 1
    print(f"loadtest: check passed: {len(expected)} runs error-free with plausible figures, report complete")
    return 0


def _prepare(server, grpcurl, families) -> dict:
    """Creates every key, makes the ciphertexts runs need, then rotates keys marked for it."""
    caller = calls.Caller(grpcurl, server.target)
    keys = {}
    for f in families:
        for k in f.keys:
            keys.setdefault(k["key_name"], k)
    for spec in keys.values():
        caller.create_key(spec)
    wanted = set().union(*(r.fixtures for f in families for r in f.runs))
    ciphertexts = {(k, n): caller.encrypt(k, campaigns.payload_b64(n)) for k, n in sorted(wanted)}
    for spec in keys.values():
        if spec.get("rotate_after_fixtures"):
            caller.rotate_key(spec)
    print(f"loadtest: {len(keys)} keys, {len(ciphertexts)} fixture ciphertexts", flush=True)
    return ciphertexts


def _warm_up(ghz, server, families, fixtures, args, out):
    if args.warmup <= 0:
        return
    wdir = out / "warmup"
    wdir.mkdir(exist_ok=True)
    per = args.warmup / len(families)
    for f in families:
        r = f.runs[0]
        cfg = ghzrun.config(campaigns.resolve(r.ghz, fixtures), server.target, per, 0,
                            wdir / f"{r.name}.json", r.name, r.tags)
        ghzrun.run(ghz, cfg, wdir / f"{r.name}.config.json", per)
    print(f"loadtest: warmed up for {args.warmup:g}s", flush=True)


def _one_run(ghz, server, r, fixtures, args, out, cores) -> dict:
    rdir = out / "runs"
    skip = max(20, args.skip_first // r.items_per_call)
    cfg = ghzrun.config(campaigns.resolve(r.ghz, fixtures), server.target, args.duration, skip,
                        rdir / f"{r.name}.ghz.json", r.name, r.tags)
    before_text = prom.scrape(server.metrics_url)
    cpu0, sys0 = server.cpu_seconds(), cpu.busy_seconds()
    result = ghzrun.run(ghz, cfg, rdir / f"{r.name}.config.json", args.duration)
    cpu1, sys1 = server.cpu_seconds(), cpu.busy_seconds()
    after_text = prom.scrape(server.metrics_url)
    (rdir / f"{r.name}.metrics-before.txt").write_text(before_text)
    (rdir / f"{r.name}.metrics-after.txt").write_text(after_text)
    row = derive.run_figures(r, result, prom.parse(before_text), prom.parse(after_text), cpu1 - cpu0, cores,
                              sys1 - sys0)
    flag = "" if row.get("valid") else f"  ERRORS: {row.get('problem')}"
    print(f"loadtest: {r.name:34s} {row.get('rps', 0):10.0f} rpc/s {row.get('items_per_s', 0):12.0f} items/s"
          f"  p99 {row.get('p99_ms') or 0:7.2f} ms  ghz {row.get('ghz_cores', 0):.2f} cores{flag}", flush=True)
    time.sleep(0.5)
    return row

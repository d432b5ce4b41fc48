"""Command line: run the ghz campaigns and the h2load side-by-side (default), compare two result folders, or
profile one's side-by-side shapes from the servers' JFR recordings.
Writes host.json, summary.json and report.md, and with --check exits 1 on implausible results."""

import platform
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from . import options, rows, sanity, tools
from .campaign import families as campaign_families
from .campaign.runner import run_families
from .measure import hostfacts
from .servers.cipherd import Cipherd
from .servers.remote import RemoteCipherd

RESULTS = Path(__file__).resolve().parents[1] / "results"


def main(argv) -> int:
    args = options.parse(argv)
    if args.compare:
        from .report import compare

        out = compare.write(*args.compare)
        print(f"loadtest: comparison written to {out}")
        return 0
    if args.jfr_shapes:
        from .report import jfr_shapes

        print(jfr_shapes.report(args.jfr_shapes, tools.jdk_home() / "bin" / "jfr", args.jfr_frames.split(",")))
        return 0
    if args.no_side_by_side and args.side_by_side_only:
        raise SystemExit("loadtest: --no-side-by-side and --side-by-side-only exclude each other")
    return run_all(args)


def server_jvm_flags(args, java: Path) -> list[str]:
    """--jvm flags, plus what JDK 23+ needs for netty's Unsafe use unless given."""
    extra = list(args.jvm)
    major = hostfacts.java_version(str(java))
    if "sun-misc-unsafe" not in " ".join(extra) and any(f'"{v}' in major for v in ("23", "24", "25", "26")):
        extra.append("--sun-misc-unsafe-memory-access=allow")
    return extra


def run_all(args) -> int:
    from .report import markdown  # matplotlib: only in the venv

    families = [] if args.side_by_side_only else campaign_families.select(args.campaigns, args.only)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or RESULTS / f"{stamp}-{platform.machine()}-{socket.gethostname()}"
    if args.target:
        out = args.out or RESULTS / f"{stamp}-{args.label or 'target'}-{socket.gethostname()}"
    (out / "runs").mkdir(parents=True, exist_ok=True)
    if args.target:
        server = RemoteCipherd(args.target, args.metrics_url, args.label or "")
        facts = hostfacts.collect_for_target(args.target, args.metrics_url, args.label or "", tools.git_commit())
    else:
        jar = tools.build_jar(args.no_build)
        java = tools.jdk_home() / "bin" / "java"
        extra = server_jvm_flags(args, java)
        server = Cipherd(java, jar, out, extra, args.server_log_level, args.server_arg)
        facts = hostfacts.collect(str(java), server.jvm_flags(), tools.git_commit())
        facts["server_log_level"] = args.server_log_level
        facts["server_args"] = args.server_arg
    rows.write(out / "host.json", facts)
    print(f"loadtest: results in {out}", flush=True)
    runs = run_families(server, families, args, out, facts["cores"]) if families else []
    summary = {
        "host": facts,
        "settings": {
            "duration_s": args.duration,
            "skip_first": args.skip_first,
            "warmup_s": args.warmup,
            "no_throughput": args.no_throughput,
        },
        "families": {f.name: f.description for f in families},
        "runs": runs,
    }
    if not args.no_side_by_side:
        summary["side_by_side"] = side_by_side(args, out, java, jar, extra, facts["cores"])
    rows.write(out / "summary.json", summary)
    markdown.write(out, summary)
    print(f"loadtest: report in {out / 'report.md'}")
    sbs = summary.get("side_by_side", {})
    bad = [r.name for r in runs if not r.valid] + [r.label for r in sbs.get("rows", []) if not r.valid]
    if bad:
        print(f"loadtest: {len(bad)} run(s) had errors and do not count: {', '.join(bad)}", file=sys.stderr)
    if sbs.get("error"):
        print(f"loadtest: the side-by-side did not complete: {sbs['error']}", file=sys.stderr)
    if args.check:
        return check(out, summary, [r.name for f in families for r in f.runs], not args.no_side_by_side)
    return 0


def side_by_side(args, out, java, jar, extra, cores) -> dict:
    """The h2load side-by-side; a failure there is reported and leaves the ghz results standing."""
    from .sidebyside import runner  # grpcio: only in the venv

    start = time.monotonic()
    try:
        section = runner.run(args, out, java, jar, extra, cores)
    except SystemExit as e:
        return {"error": str(e), "elapsed_s": time.monotonic() - start}
    print(f"loadtest: side-by-side done in {section['elapsed_s']:.0f} s", flush=True)
    for g in section["targets"] + section["floor_targets"]:
        print(f"loadtest: target {g.mark.upper() if g.met is False else g.mark:12s} {g.target}: {g.figure}", flush=True)
    for f in section["floor"]:
        print(
            f"loadtest: floor {f.shape:22s} "
            + (
                f"cipherd ÷ floor {f.cipherd_vs_floor:.0%} (floor {f.floor_us_per_item:.2f} "
                f"µs/item, cipherd {f.cipherd_us_per_item:.2f})"
                if f.cipherd_vs_floor is not None
                else f"not measured ({f.missing})"
            ),
            flush=True,
        )
    for b in section["baseline"]:
        each = ", ".join("–" if r is None else f"{r:.3f}" for r in b.round_ratios)
        cpu = ", ".join("–" if r is None else f"{r:.3f}" for r in b.cpu_round_ratios)
        print(
            f"loadtest: cipherd ÷ baseline {b.shape:22s} "
            f"{'not measured' if b.ratio is None else f'{b.ratio:.3f}'} (per round: {each})",
            flush=True,
        )
        print(
            f"loadtest: server CPU per item, cipherd ÷ baseline {b.shape:22s} "
            f"{'not measured' if b.cpu_ratio is None else f'{b.cpu_ratio:.3f}'} (per round: {cpu})",
            flush=True,
        )
    return section


def check(out, summary, expected, side_by_side_expected) -> int:
    found = sanity.problems(out, summary, expected, side_by_side_expected)
    for p in found:
        print(f"loadtest: check failed: {p}", file=sys.stderr)
    if found:
        return 1
    n_sbs = len(summary.get("side_by_side", {}).get("rows", []))
    print(
        f"loadtest: check passed: {len(expected)} ghz runs and {n_sbs} side-by-side rows error-free with "
        "plausible figures, report complete"
    )
    return 0

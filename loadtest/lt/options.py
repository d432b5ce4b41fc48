"""The runner's command line: flags, their defaults, and presets applied on top."""

import argparse
from pathlib import Path

from . import presets
from .campaign import families
from .sidebyside import jce, lineup, shapes


def parse(argv):
    p = argparse.ArgumentParser(
        prog="make loadtest LOADTEST_ARGS=...",
        description="ghz campaigns and the h2load side-by-side against fresh servers, or --compare two results",
    )
    p.add_argument("--duration", type=float, default=10.0, help="seconds per run after warm-up (default 10)")
    p.add_argument(
        "--campaigns", default="all", help=f"comma-separated families (default all: {','.join(families.available())})"
    )
    p.add_argument("--only", default="", help="regex: run only runs whose name matches")
    p.add_argument(
        "--skip-first",
        type=int,
        default=1000,
        help="calls per ghz worker set ghz skips first, divided by items per call (default 1000)",
    )
    p.add_argument("--warmup", type=float, default=10.0, help="seconds of warm-up traffic before the runs")
    p.add_argument("--out", type=Path, help="result folder (default loadtest/results/<date>-<arch>-<host>)")
    p.add_argument("--no-build", action="store_true", help="use server/target/cipherd.jar if it exists")
    p.add_argument("--jvm", action="append", default=[], help="extra JVM flag for the server (repeatable)")
    p.add_argument(
        "--server-log-level",
        default="WARN",
        help="CIPHERD_LOG_LEVEL for the server (default WARN: no access-log line per call)",
    )
    p.add_argument(
        "--no-side-by-side",
        action="store_true",
        help="skip the h2load side-by-side (Vault Transit, echo ceiling, cipherd)",
    )
    p.add_argument("--side-by-side-only", action="store_true", help="run only the h2load side-by-side, no ghz")
    p.add_argument(
        "--sbs-duration", type=float, default=10.0, help="seconds each side-by-side h2load run measures (default 10)"
    )
    p.add_argument(
        "--sbs-warmup",
        type=float,
        default=30.0,
        help="seconds of warm-up traffic per side-by-side server before its runs, split over the shapes it "
        "runs by their weights (default 30)",
    )
    p.add_argument(
        "--sbs-h2load-warmup",
        type=float,
        default=2.0,
        help="h2load --warm-up-time of each side-by-side run, not measured (default 2)",
    )
    p.add_argument(
        "--sbs-rounds",
        type=int,
        default=1,
        help="repeat the side-by-side's runs N times, report each one's median round (default 1)",
    )
    p.add_argument(
        "--sbs-fresh-servers",
        action="store_true",
        help="with --sbs-rounds: restart cipherd (and its baseline) before every round after the first and warm "
        "it up again, so that each round measures a JVM of its own: one JVM's JIT can leave a shape's hot path "
        "a fifth slower than another's for its whole life, which no number of rounds in it averages out",
    )
    p.add_argument(
        "--sbs-jmh-args",
        default=jce.DEFAULT_ARGS,
        metavar="ARGS",
        help="JMH options of the side-by-side's JceGcmFloorBenchmark run, the JCE's cost for the floor "
        f"(default '{jce.DEFAULT_ARGS}')",
    )
    p.add_argument(
        "--sbs-targets",
        metavar="A,B",
        help="comma-separated side-by-side servers: vault, echo, cipherd, cipherd-baseline (default all; "
        "the baseline only with --baseline-jar; cipherd always)",
    )
    p.add_argument(
        "--sbs-shapes",
        metavar="A,B",
        help=f"comma-separated side-by-side shapes (default all: {','.join(shapes.NAMES)}), e.g. "
        "encrypt,encrypt-batch-256 for a quicker sitting with more rounds",
    )
    p.add_argument(
        "--sbs-subject-cache-size",
        type=int,
        default=1000,
        metavar="N",
        help="cipherd's --subject-cache-size in the side-by-side when a subject-bound shape or the cold-subject "
        "run is measured (default 1000: the subject shapes' 256 warm subjects fit)",
    )
    p.add_argument(
        "--sbs-cold-subjects",
        type=int,
        default=0,
        metavar="N",
        help="after the rounds, Decrypt p99 of a cold subject: N subjects (more than --sbs-subject-cache-size), "
        "one unary Decrypt each in a shuffled order, next to as many of one warm subject (default 0: not run)",
    )
    p.add_argument(
        "--baseline-jar",
        type=Path,
        metavar="PATH",
        help="also measure this cipherd jar in the side-by-side (cipherd-baseline), started as cipherd is, "
        "right next to it in every round, with cipherd ÷ baseline per shape",
    )
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for the measured cipherd, not the baseline (repeatable; {tmp} is that "
        "server's temporary folder), e.g. --server-arg=--audit-log={tmp}/audit.log",
    )
    p.add_argument(
        "--baseline-server-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="extra argument for the baseline cipherd only (repeatable; {tmp} as for --server-arg)",
    )
    p.add_argument(
        "--preset",
        choices=sorted(presets.PRESETS),
        help="a named selection and settings; flags given on the command line win (smoke: make test's)",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless every run is error-free with plausible figures and the report is complete",
    )
    p.add_argument(
        "--target",
        metavar="HOST:PORT",
        help="run the ghz campaigns against this already running cipherd (a container, a Service, a "
        "remote node) instead of starting one: nothing is started or stopped, no side-by-side; "
        "needs --metrics-url. Plaintext gRPC; CIPHERD_TOKEN, if set, is sent as the bearer token. "
        "It creates the campaigns' keys (an existing one is reused), so the caller needs admin",
    )
    p.add_argument(
        "--metrics-url",
        metavar="URL",
        help="with --target: that server's own /metrics (http://HOST:PORT/metrics), scraped around each "
        "run for its calls, GC and allocation",
    )
    p.add_argument(
        "--label",
        metavar="TEXT",
        help="with --target: what the target is, recorded in host.json and the report and used in the "
        "result folder's name (e.g. aarch64-emulated)",
    )
    p.add_argument(
        "--no-throughput",
        action="store_true",
        help="leave throughput and latency out of the printed lines and the report (for a target whose "
        "speed means nothing, such as one under emulation); GC and allocation stay",
    )
    p.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("DIR_A", "DIR_B"),
        help="write a side-by-side report of two result folders instead of running",
    )
    p.add_argument(
        "--jfr-shapes",
        type=Path,
        metavar="DIR",
        help="instead of running: print, per target and side-by-side shape of the result folder DIR, the "
        "servers' JFR execution samples per million items (a change of a few percent shows there when "
        "items/s and CPU seconds cannot separate two jars), with --jfr-frames and the methods most on top",
    )
    p.add_argument(
        "--jfr-frames",
        default="",
        metavar="A,B",
        help="with --jfr-shapes: methods (substrings, such as SubjectKeys.forDecryption) whose samples to "
        "count wherever they are on the stack, and, by CPU time, in their own code or thread (the innermost "
        "or outermost frame outside the JDK is theirs), together as a share of the server's CPU",
    )
    args = p.parse_args(argv)
    presets.apply(args, p)
    if args.target:
        if not args.metrics_url:
            p.error("--target needs --metrics-url: the figures come from that server's own /metrics")
        if args.side_by_side_only or args.baseline_jar is not None:
            p.error("--target runs the ghz campaigns only: the side-by-side starts its own servers")
        from .servers import remote

        try:
            remote.split_target(args.target)
            remote.check_metrics_url(args.metrics_url)
        except ValueError as e:
            p.error(str(e))
        args.no_side_by_side = True
    elif args.metrics_url or args.label:
        p.error("--metrics-url and --label go with --target")
    if args.baseline_jar is not None:
        if not args.baseline_jar.is_file():
            p.error(f"--baseline-jar {args.baseline_jar}: no such file")
        if args.no_side_by_side:
            p.error("--baseline-jar is measured in the side-by-side, which --no-side-by-side skips")
        args.baseline_jar = args.baseline_jar.resolve()
    try:
        args.sbs_targets = lineup.parse(args.sbs_targets, args.baseline_jar is not None)
        args.sbs_shapes = shapes.select(args.sbs_shapes)
    except ValueError as e:
        p.error(str(e))
    if args.sbs_cold_subjects and args.sbs_cold_subjects <= args.sbs_subject_cache_size:
        p.error(
            f"--sbs-cold-subjects {args.sbs_cold_subjects} must exceed --sbs-subject-cache-size "
            f"{args.sbs_subject_cache_size}, or every subject stays in the cache"
        )
    return args

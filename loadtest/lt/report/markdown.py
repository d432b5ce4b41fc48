"""Writes report.md (tables, notes on client-bound figures) and its PNG charts from the summary (rows typed)."""

from pathlib import Path

from ..campaign.figures import RunFigures
from ..sidebyside import floor_report
from ..sidebyside import report as sbs_report
from ..tables import num, row_flags, table
from . import charts

MAIN_HEADER = [
    "run",
    "conc",
    "items/call",
    "RPC/s",
    "items/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "alloc B/call",
    "alloc B/item",
    "GCs",
    "GC pause ms (total/max)",
    "ghz cores",
    "server cores",
    "other cores",
    "note",
]


def note(r: RunFigures) -> str:
    return "; ".join(row_flags(r, "client-bound"))


def main_row(r: RunFigures) -> list[str]:
    if not r.measured:
        return [r.name] + ["–"] * (len(MAIN_HEADER) - 2) + [note(r)]
    return [
        r.name,
        str(r.concurrency),
        str(r.items_per_call),
        num(r.rps),
        num(r.items_per_s),
        num(r.p50_ms, 2),
        num(r.p90_ms, 2),
        num(r.p99_ms, 2),
        num(r.alloc_per_call),
        num(r.alloc_per_item),
        num(r.gc_count),
        f"{num(r.gc_pause_total_ms, 1)} / {num(r.gc_pause_max_ms, 1)}",
        num(r.ghz_cores, 2),
        num(r.server_cores, 2),
        num(r.other_cores, 2),
        note(r),
    ]


# --no-throughput (a target whose speed means nothing, e.g. under emulation): what the server's /metrics say
GC_HEADER = [
    "run",
    "conc",
    "items/call",
    "server calls",
    "alloc B/call",
    "alloc B/item",
    "GCs",
    "GC pause ms (total/max)",
    "note",
]


def gc_row(r: RunFigures) -> list[str]:
    if not r.measured:
        return [r.name] + ["–"] * (len(GC_HEADER) - 2) + [note(r)]
    return [
        r.name,
        str(r.concurrency),
        str(r.items_per_call),
        num(r.server_calls),
        num(r.alloc_per_call),
        num(r.alloc_per_item),
        num(r.gc_count),
        f"{num(r.gc_pause_total_ms, 1)} / {num(r.gc_pause_max_ms, 1)}",
        note(r),
    ]


def main_table(runs: list[RunFigures], no_throughput: bool = False) -> str:
    if no_throughput:
        return table(GC_HEADER, [gc_row(r) for r in runs])
    return table(MAIN_HEADER, [main_row(r) for r in runs])


def host_lines(h: dict) -> list[str]:
    return [
        f"- **arch** `{h['arch']}`, **host** `{h['host']}`, **CPU** {h['cpu_model']}, **cores** {h['cores']}, "
        f"load at start {', '.join(f'{x:.2f}' for x in h['load_average_at_start'])}",
        f"- **JDK** {h['jdk']}",
        f"- **JVM flags** `{' '.join(h['jvm_flags'])}`",
        f"- **cipherd** `{h['cipherd_commit']}`, started {h['time_utc']}",
    ] + target_lines(h)


def target_lines(h: dict) -> list[str]:
    t = h.get("target")
    if not t:
        return []
    return [
        f"- **target** `{t['address']}`{' (' + t['label'] + ')' if t['label'] else ''}, an already running "
        f"cipherd: its figures from its own `{t['metrics_url']}`; the load generator is this host "
        f"({t['load_generator_arch']})"
    ]


def write(out: Path, summary: dict) -> None:
    h, s, runs = summary["host"], summary["settings"], summary["runs"]
    lines = [
        f"# cipherd load test — {h['arch']} / {h['host']}"
        + (f" → {h['target']['address']}" if h.get("target") else ""),
        "",
    ]
    lines += host_lines(h)
    if runs:
        where = "ghz against the target above" if h.get("target") else "ghz and cipherd on the same machine, 127.0.0.1"
        lines += [
            f"- **settings** {s['duration_s']:g} s per run after ghz `skipFirst` ({s['skip_first']} calls ÷ items "
            f"per call), {s['warmup_s']:g} s warm-up; {where}",
            "",
        ]
        lines += ghz_lines(out, summary)
    else:
        lines += ["- no ghz campaigns in this run", ""]
    sbs = summary.get("side_by_side")
    if sbs and sbs.get("error"):
        lines += ["## Side by side (h2load)", "", f"**Did not complete:** {sbs['error']}", ""]
    elif sbs:
        png = charts.side_by_side(out, floor_report.CHART_NAME, *floor_report.chart_series(sbs))
        lines += sbs_report.section(sbs, png.name if png else None)
    files = ["`host.json`, `summary.json`"]
    if runs:
        files.insert(
            0,
            "`runs/<run>.config.json` (the ghz config), `runs/<run>.ghz.json` (ghz's report), "
            "`runs/<run>.metrics-{before,after}.txt` (scrapes)"
            + ("" if h.get("target") else ", `gc.log`, `cipherd.jfr`, `server.log`"),
        )
    if sbs and not sbs.get("error"):
        files.append(
            "`sidebyside/` (`sidebyside.json`, the request `bodies/`, per run h2load's output, its row and "
            "cipherd's scrapes in `runs/`, the servers' logs, cipherd's `gc.log` and `cipherd.jfr`"
            + (", the baseline's in `cipherd-baseline/`" if sbs.get("baseline") else "")
            + ")"
        )
    lines += ["## Files", "", ", ".join(files) + ".", ""]
    (out / "report.md").write_text("\n".join(lines))


def ghz_lines(out: Path, summary: dict) -> list[str]:
    runs = summary["runs"]
    if summary["settings"].get("no_throughput"):
        lines = [
            "## GC profile (no throughput quoted)",
            "",
            main_table(runs, no_throughput=True),
            "",
            "From the server's own `/metrics` before and after each run: calls it finished, bytes allocated "
            "(Micrometer's count at each GC plus the eden in use), GC count and pauses. Throughput and "
            "latency are left out on purpose (`--no-throughput`): this target's speed says nothing about "
            "the server's (emulation, a shared node); ghz's raw reports stay in `runs/`.",
            "",
        ]
        bad = [r for r in runs if not r.valid]
        lines += [f"- `{r.name}`: {r.problem} {r.error_distribution}" for r in bad] + ([""] if bad else [])
        return lines + ["## Families", ""] + [f"- **{k}**: {v}" for k, v in summary["families"].items()] + [""]
    pngs = charts.draw(out, runs)
    lines = ["## Main table", "", main_table(runs), ""]
    lines += [
        "How to read it: RPC/s, latency and errors come from ghz; allocation, GC and server CPU from the "
        "server's `/metrics` before and after the run (allocation ÷ the server's call count for the method). "
        "Allocation is counted by Micrometer at each GC, so a short run with few GCs gives a coarse figure. "
        "GC pause max is the longest pause the server's gc.log shows within the run's time window (for a "
        "--target, whose log the runner cannot read, Micrometer's decaying-window maximum, which may include "
        "a pause before the run). "
        "CPU columns are CPU seconds ÷ wall seconds: ghz (rusage), cipherd (/proc/PID/stat) and the rest of "
        "the machine (/proc/stat); *box saturated* means the whole machine was ≥ 90 % busy.",
        "",
    ]
    bound = [r.name for r in runs if r.client_bound]
    if bound:
        lines += [
            f"**Client-bound:** in {len(bound)} of {len(runs)} runs ghz used at least 0.9 of a core or more CPU "
            "than the server ({}). Those figures measure ghz on this box as much as cipherd; "
            "the h2load side-by-side below is the measure of the server's ceiling.".format(", ".join(bound)),
            "",
        ]
    bad = [r for r in runs if not r.valid]
    if bad:
        lines += ["## Runs with errors (do not count)", ""]
        lines += [f"- `{r.name}`: {r.problem} {r.error_distribution}" for r in bad]
        lines += [""]
    if pngs:
        lines += ["## Charts", ""] + [f"![{p.stem}]({p.name})" for p in pngs] + [""]
    lines += ["## Families", ""] + [f"- **{k}**: {v}" for k, v in summary["families"].items()] + [""]
    return lines

"""The side-by-side's section of report.md: one table row per server and shape ('–' where Vault has no
counterpart), who was the limit, ratios, the floor (floor_report), cipherd ÷ baseline with --baseline-jar, and
issue 4's goals."""

from ..tables import num, row_flags, table
from . import cold_subjects, floor_report
from .baseline import BaselineRatio
from .goals import find
from .lineup import ALL, BASELINE, CIPHERD, ECHO, VAULT
from .row import SbsRow

LABEL = {VAULT: "Vault Transit", ECHO: "echo ceiling", CIPHERD: "cipherd", BASELINE: "cipherd baseline"}
HEADER = [
    "shape",
    "target",
    "clients",
    "req/s",
    "items/s",
    "p50 ms",
    "p99 ms",
    "max ms",
    "errors",
    "h2load cores",
    "server cores",
    "other cores",
    "alloc B/call",
    "alloc B/item",
    "note",
]
BASELINE_HEADER = [
    "shape",
    "cipherd items/s",
    "baseline items/s",
    "cipherd ÷ baseline",
    "cipherd rounds (low–high)",
    "baseline rounds (low–high)",
    "÷ per round",
    "reading",
    "server CPU per item, cipherd ÷ baseline (median round)",
    "CPU ÷ per round",
]


def limit_line(rows: list[SbsRow]) -> str:
    """Who was the limit: the client, the server, or the machine shared with other processes."""
    others = [r.other_cores for r in rows if r.other_cores is not None]
    bound = [r.label for r in rows if r.client_bound]
    text = (
        "Who was the limit: CPU columns are CPU seconds ÷ wall seconds of h2load (rusage), the server "
        "(/proc/PID/stat) and everything else (/proc/stat). "
    )
    text += (
        f"h2load used ≥ 0.9 core or more than the server in {', '.join(bound)}: those rates are a floor. "
        if bound
        else "h2load never used more than the server nor 0.9 core: the servers were measured, not h2load. "
    )
    if others and sum(others) / len(others) >= 0.25:
        text += (
            f"**Other processes used {sum(others) / len(others):.2f} cores on average during the runs "
            f"(max {max(others):.2f})**: every rate here is depressed by that, unevenly between servers measured "
            "at different times; trust ratios only from a quiet machine."
        )
    return text


def note(r: SbsRow) -> str:
    parts = row_flags(r, "h2load-bound")
    if r.rounds:
        v = r.rounds.items_per_s
        parts.append(
            f"median of {r.rounds.valid} valid / {r.rounds.count} rounds ({min(v):,.0f}–{max(v):,.0f} items/s)"
        )
        if r.rounds.invalid:
            parts.append(f"round(s) {', '.join(map(str, r.rounds.invalid))} had errors")
    return "; ".join(parts)


def table_row(r: SbsRow) -> list[str]:
    return [
        r.shape,
        LABEL[r.target],
        str(r.clients),
        num(r.rps),
        num(r.items_per_s),
        num(r.p50_ms, 2),
        num(r.p99_ms, 2),
        num(r.max_ms, 1),
        num(r.errors),
        num(r.h2load_cores, 2),
        num(r.server_cores, 2),
        num(r.other_cores, 2),
        num(r.alloc_per_call),
        num(r.alloc_per_item),
        note(r),
    ]


def no_counterpart_row(shape: str, target: str) -> list[str]:
    return [shape, LABEL[target]] + ["–"] * (len(HEADER) - 3) + ["no counterpart"]


def ratio_lines(sbs: dict, servers: tuple[str, ...]) -> list[str]:
    """cipherd ÷ Vault and ÷ the echo ceiling per shape, for the servers that ran."""
    columns = [
        (key, head, fmt)
        for key, head, fmt, server in [
            ("cipherd_vs_vault", "cipherd ÷ Vault", lambda v: num(v, 2) + "×", VAULT),
            ("cipherd_vs_echo", "cipherd ÷ ceiling", lambda v: num(v * 100) + " %", ECHO),
        ]
        if server in servers
    ]
    if not columns:
        return []
    rat = sbs["ratios"]
    body = [
        [s.name] + [fmt(rat[s.name][key]) if rat[s.name][key] else "–" for key, _, fmt in columns]
        for s in sbs["shapes"]
    ]
    return ["Ratios (items/s; only between valid runs):", "", table(["shape"] + [h for _, h, _ in columns], body), ""]


def spread_text(spread: tuple) -> str:
    if not spread:
        return "–"
    return num(spread[0]) if spread[0] == spread[1] else f"{num(spread[0])}–{num(spread[1])}"


def verdict(b: BaselineRatio) -> str:
    if b.ratio is None:
        return "not measured (missing or invalid run)"
    if b.overlap is None:
        return "one valid round: no spread to judge by"
    if b.overlap:
        return "within the rounds' spread"
    # spreads apart implies the same winner in every round both ran in; it says nothing of how much
    return f"spreads apart: cipherd {'faster' if b.ratio > 1 else 'slower'} in every round"


def baseline_row(b: BaselineRatio) -> list[str]:
    per_round = ", ".join("–" if r is None else f"{r:.2f}" for r in b.round_ratios) or "–"
    return [
        b.shape,
        num(b.cipherd_items_per_s),
        num(b.baseline_items_per_s),
        num(b.ratio, 3) + "×" if b.ratio else "–",
        spread_text(b.cipherd_spread),
        spread_text(b.baseline_spread),
        per_round,
        verdict(b),
        num(b.cpu_ratio, 3) + "×" if b.cpu_ratio else "–",
        ", ".join("–" if r is None else f"{r:.2f}" for r in b.cpu_round_ratios) or "–",
    ]


def server_args_text(sbs: dict) -> str:
    """Which extra server arguments each side got (--server-arg, --baseline-server-arg), if any."""
    args = sbs.get("server_args") or {}
    parts = [f"{side}: `{' '.join(given)}`" for side, given in args.items() if given]
    return (" Extra server arguments, " + "; ".join(parts) + ".") if parts else ""


def baseline_lines(sbs: dict) -> list[str]:
    """cipherd ÷ baseline per shape: the median rounds, each side's spread, each round's ratio."""
    jar = sbs.get("baseline_jar") or {}
    lines = [
        "### cipherd ÷ baseline",
        "",
        f"Baseline: `{jar.get('path', '?')}` (SHA-256 `{jar.get('sha256', '?')[:16]}…`), started as cipherd is, "
        f"measured right next to it in each of {sbs.get('rounds', 1)} round(s), the two swapping places every "
        "round. Items/s are each one's median round; *÷ per round* is the ratio within each round, where the "
        "two ran back to back. Above 1: cipherd is faster. Where the two spreads overlap the difference is "
        "within the rounds' noise; with one round there is no spread (use `--sbs-rounds 3`). *Server CPU per item* is "
        "each server's CPU seconds over the items it served, per round: above 1, cipherd spends more per item. It "
        "moves less than items/s when other processes share the machine, as a cost question (what does tracing "
        "cost a call?) wants." + server_args_text(sbs),
        "",
        table(BASELINE_HEADER, [baseline_row(b) for b in sbs["baseline"]]),
        "",
    ]
    return lines


def section(sbs: dict, chart: str | None = None) -> list[str]:
    """The report.md lines of the side-by-side (sbs: the section of summary.json, rows typed; chart: the file
    name of its items/s chart, shown beside the floor table)."""
    rows, shapes = sbs["rows"], sbs["shapes"]
    servers = tuple(sbs.get("servers") or ALL[:3])  # older results: the three
    lines = [f"## Side by side (h2load): {', '.join(LABEL[t] for t in servers)}", ""]
    lines += [
        f"{sbs.get('h2load_version', 'h2load')}, `-m 1 -t 1`, {sbs['duration_s']:g} s measured after "
        f"{sbs['h2load_warmup_s']:g} s h2load warm-up per run, {sbs['warmup_s']:g} s warm-up traffic per server "
        f"before its runs; {sbs['payload_bytes']} B plaintext; grpc-java {sbs['versions'].get('grpc.version')}, "
        f"protobuf {sbs['versions'].get('protobuf.version')} (echo and cipherd). All on 127.0.0.1.",
        "",
    ]
    body = []
    for s in shapes:
        for t in servers:
            r = find(rows, t, s.name)
            if r is not None:
                body.append(table_row(r))
            elif t == VAULT and not s.has_vault:
                body.append(no_counterpart_row(s.name, t))
    lines += [table(HEADER, body), ""]
    lines += [limit_line(rows), ""]
    cancelled = [f"{r.label} {r.cancelled_at_stop:.0f}" for r in rows if r.cancelled_at_stop]
    if cancelled:
        lines += [
            "Calls the server counted as CANCELLED when h2load reset its in-flight streams at the end of a run "
            f"(at most one per client, not errors): {', '.join(cancelled)}.",
            "",
        ]
    lines += ratio_lines(sbs, servers)
    lines += floor_report.lines(sbs, chart)
    if sbs.get("baseline"):
        lines += baseline_lines(sbs)
    lines += subject_lines(sbs)
    lines += ["### Targets (issue 4)", ""]
    for g in sbs["targets"]:
        mark = "not measured" if g.met is None else f"**{g.mark}**"
        lines.append(f"- {mark}: {g.target} — {g.figure}")
    lines += [""]
    lines += [f"- {n}" for n in sbs.get("notes", [])] + [""]
    return lines


def subject_lines(sbs: dict) -> list[str]:
    """Subject-bound shapes ÷ plain gcm (each round's ratio and the median), and the cold-subject Decrypt."""
    lines = []
    for shape, r in (sbs.get("subject_ratios") or {}).items():
        each = ", ".join("—" if v is None else f"{v * 100:.0f} %" for v in r["rounds"])
        median = "not measured" if r["median"] is None else f"{r['median'] * 100:.0f} %"
        lines.append(f"- cipherd `{shape}` ÷ `{r['plain']}` (items/s, back to back): median {median}; rounds: {each}")
    cold = sbs.get("cold_subjects")
    if cold:
        c = cold if isinstance(cold, cold_subjects.ColdSubjects) else cold_subjects.ColdSubjects(**cold)
        lines.append(f"- {cold_subjects.line(c)}")
    return (["### Subject-bound data (issue 32)", "", *lines, ""]) if lines else []

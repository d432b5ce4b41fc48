"""The floor's part of report.md's side-by-side section (issue 21): the JMH line, the table per shape (with
the baseline's columns when it ran), the stream's per-message cost, the chart beside it and issue 21's
targets; and the chart's series, so the chart itself only draws."""

from ..tables import num, table
from .floor import FloorRow, StreamOverhead
from .floor_goals import BATCH_ALLOC_OVER_ECHO
from .goals import find
from .jce import JceCost
from .lineup import ALL, BASELINE, CIPHERD, ECHO, VAULT

HEADER = [
    "shape",
    "echo µs/item",
    "JCE µs/item",
    "floor µs/item",
    "cipherd µs/item",
    "cipherd ÷ floor",
    "floor items/s",
    "cipherd items/s",
    "cipherd B/item",
    "echo B/item",
    "cipherd − echo B/item",
    "JCE B/item",
    "cipherd − echo − JCE B/item",
]
BASELINE_HEADER = ["baseline µs/item", "baseline ÷ floor"]
CHART_LABELS = {VAULT: "Vault Transit", ECHO: "echo", CIPHERD: "cipherd", BASELINE: "cipherd baseline"}
FLOOR = "floor"
CHART_NAME = "sidebyside_items_per_s"  # the chart's file, without .png


def pct(v: float | None) -> str:
    return "–" if v is None else f"{v * 100:.0f} %"


def signed(v: float | None) -> str:
    return "–" if v is None else f"{v:+,.0f}"


def jce_text(f: FloorRow) -> str:
    """The JCE's µs per item and which operations make it, e.g. `0.71 (open + seal)`."""
    ops = " + ".join({"encrypt": "seal", "decrypt": "open"}.get(op, op) for op in f.jce_ops)
    return f"{num(f.jce_us_per_item, 2)} ({ops})"


def table_row(f: FloorRow, with_baseline: bool) -> list[str]:
    cells = [
        f.shape,
        num(f.echo_us_per_item, 2),
        jce_text(f),
        num(f.floor_us_per_item, 2),
        num(f.cipherd_us_per_item, 2),
        pct(f.cipherd_vs_floor),
        num(f.floor_items_per_s),
        num(f.cipherd_items_per_s),
        num(f.cipherd_alloc_per_item),
        num(f.echo_alloc_per_item),
        signed(f.alloc_over_echo),
        num(f.jce_alloc_per_item),
        signed(f.alloc_over_echo_and_jce),
    ]
    if with_baseline:
        cells += [num(f.baseline_us_per_item, 2), pct(f.baseline_vs_floor)]
    return cells


def jce_line(jce: JceCost | None) -> str:
    if jce is None:
        return "**Floor not measured:** this result has no JMH run of the JCE."
    if jce.error:
        return f"**Floor not measured:** the JMH run of the JCE failed: {jce.error}"
    each = ", ".join(
        f"{m} {v:,.0f} ns/op"
        + (f" ± {jce.error_ns[m]:,.0f}" if jce.error_ns.get(m) else "")
        + (f" ({jce.alloc_bytes_per_op[m]:,.0f} B/op)" if m in jce.alloc_bytes_per_op else "")
        for m, v in jce.ns_per_op.items()
    )
    return (
        f"JCE cost per operation, measured in this sitting (JMH `JceGcmFloorBenchmark`, AES-256-GCM, 100 B, "
        f"preallocated arrays, JDK {jce.jdk}, `{jce.jmh_args}`, {jce.elapsed_s:.0f} s with Maven): {each}. "
        "`drbgNonce` is one 12-byte nonce from the JDK's DRBG, for the record: no floor counts it."
        + ("" if jce.alloc_bytes_per_op else " B/op not reported (no `-prof gc` figures in JMH's JSON).")
    )


def alloc_note(jce: JceCost | None) -> str:
    """One sentence: why allocation is judged both over echo's (the issue's words) and beyond the JCE's own."""
    seal, open_ = (jce.alloc_bytes_per_op.get(op) if jce else None for op in ("encrypt", "decrypt"))
    if seal is None or open_ is None:
        own = "allocates by itself (no `-prof gc` figure for it in this run: the second set is not measured)"
    else:
        own = f"allocates {seal:,.0f} B per seal and {open_:,.0f} B per open by itself (JMH `-prof gc`)" + (
            f", more than the literal +{BATCH_ALLOC_OVER_ECHO} B per batch item allows on its own"
            if min(seal, open_) > BATCH_ALLOC_OVER_ECHO
            else ""
        )
    return (
        "Allocation is judged both as the issue states it (over echo's) and beyond echo's and the JCE's own "
        f"(cipherd's share), because the JCE's AES-GCM {own}."
    )


def stream_line(overheads: list[StreamOverhead]) -> str:
    if not overheads:
        return "Stream vs batch: not measured (no server has valid ReEncryptStream-256 and ReEncryptBatch-256 runs)."
    each = "; ".join(
        f"{CHART_LABELS[o.target]} {o.extra_us_per_item:+.2f} µs ({o.stream_us_per_item:.2f} streamed "
        f"vs {o.batch_us_per_item:.2f} batched)"
        for o in overheads
    )
    return (
        "gRPC's per-message cost: the same rewrap streamed (ReEncryptStream-256, one message per item) rather than "
        f"batched (ReEncryptBatch-256), extra CPU per item: {each}."
    )


def lines(sbs: dict, chart: str | None = None) -> list[str]:
    """The floor's report.md lines (sbs: the section of summary.json, rows typed)."""
    floors, with_baseline = sbs.get("floor") or [], bool(sbs.get("baseline"))
    out = [
        "### Floor: gRPC plus the JCE (issue 21)",
        "",
        "CPU µs per item = (h2load cores + server cores) ÷ items/s × 10⁶, of each target's median round. The "
        "**floor** is echo's (the same client and gRPC stack, no crypto) plus the JCE's own cost of the shape's "
        "operations per item; **cipherd ÷ floor** = floor µs ÷ cipherd µs (100 % = cipherd spends no CPU beyond "
        "gRPC and the JCE); **floor items/s** = cipherd's cores ÷ the floor's µs per item, what cipherd would "
        "reach on the CPU it used if each item cost only the floor.",
        "",
        jce_line(sbs.get("jce")),
        "",
    ]
    if floors:
        rows = [table_row(f, with_baseline) for f in floors]
        out += [table(HEADER + (BASELINE_HEADER if with_baseline else []), rows), ""]
        out += [f"- {f.shape}: floor not measured ({f.missing})" for f in floors if f.missing]
        out += [""] if any(f.missing for f in floors) else []
    out += [stream_line(sbs.get("stream_overhead") or []), ""]
    if chart:
        out += [f"![items per second per shape, log scale]({chart})", ""]
    out += ["### Targets (issue 21)", "", alloc_note(sbs.get("jce")), ""]
    for g in sbs.get("floor_targets") or []:
        out.append(f"- {'not measured' if g.met is None else f'**{g.mark}**'}: {g.target} — {g.figure}")
    return out + [""]


def chart_series(sbs: dict) -> tuple[list[str], list[tuple[str, list]]]:
    """(shape names, [(label, items/s per shape or None)]) for the chart: each server that ran, in the
    report's order, with the floor after echo; None where a run is missing or invalid."""
    shapes = [s.name for s in sbs["shapes"]]
    rows, floors = sbs["rows"], {f.shape: f for f in sbs.get("floor") or []}
    servers = tuple(sbs.get("servers") or ALL[:3])

    def rate(target, shape):
        r = find(rows, target, shape)
        return r.items_per_s if r is not None and r.valid else None

    series = []
    for t in servers:
        series.append((CHART_LABELS[t], [rate(t, s) for s in shapes]))
        if t == ECHO and floors:
            series.append((FLOOR, [floors[s].floor_items_per_s if s in floors else None for s in shapes]))
    return shapes, series

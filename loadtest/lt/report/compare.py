"""Side-by-side report of two result folders (two architectures, two commits): B ÷ A ratios per run."""

from pathlib import Path

from ..tables import num, table
from .markdown import host_lines
from .summary import load_summary

FIGURES = [
    ("rps", "RPC/s", 0),
    ("items_per_s", "items/s", 0),
    ("p99_ms", "p99 ms", 2),
    ("alloc_per_item", "alloc B/item", 0),
    ("gc_pause_total_ms", "GC pause ms", 1),
]


def _ratio(a, b) -> str:
    if not a or b is None:
        return "–"
    return f"{b / a:.2f}×"


def keyed_runs(summary: dict) -> dict:
    """(tool, name) -> row: the ghz runs and the side-by-side's h2load rows (named TARGET-SHAPE)."""
    runs = {(r.tool, r.name): r for r in summary["runs"]}
    for r in (summary.get("side_by_side") or {}).get("rows", []):
        runs[("h2load", r.label)] = r
    return runs


def write(dir_a: Path, dir_b: Path) -> Path:
    a, b = load_summary(dir_a), load_summary(dir_b)
    runs_a, runs_b = keyed_runs(a), keyed_runs(b)
    common = [k for k in runs_a if k in runs_b]
    header = ["run"]
    for _, label, _ in FIGURES:
        header += [f"{label} A", f"{label} B", "B÷A"]
    header.append("note")
    rows = []
    for key in common:
        ra, rb = runs_a[key], runs_b[key]
        row = [key[1] if key[0] == "ghz" else f"{key[1]} ({key[0]})"]
        for field, _, digits in FIGURES:
            fa, fb = getattr(ra, field, None), getattr(rb, field, None)  # GC figures: ghz runs only
            row += [num(fa, digits), num(fb, digits), _ratio(fa, fb)]
        notes = []
        for side, r in (("A", ra), ("B", rb)):
            if not r.valid:
                notes.append(f"{side} had errors")
            if r.client_bound:
                notes.append(f"{side} client-bound" if key[0] == "ghz" else f"{side} h2load-bound")
        row.append("; ".join(notes))
        rows.append(row)
    only = sorted({k[1] for k in runs_a} ^ {k[1] for k in runs_b})
    lines = (
        ["# cipherd load test — comparison", "", f"A: `{dir_a}`", ""]
        + host_lines(a["host"])
        + ["", f"B: `{dir_b}`", ""]
        + host_lines(b["host"])
    )
    lines += [
        "",
        "Ratios are B ÷ A: above 1 is more for B (better for RPC/s and items/s, worse for latency, "
        "allocation and GC). Runs with errors or client-bound figures are marked.",
        "",
        table(header, rows),
        "",
    ]
    if only:
        lines += [f"Runs in only one folder: {', '.join(only)}", ""]
    out = dir_b / f"compare-{dir_a.name}.md"
    out.write_text("\n".join(lines))
    return out

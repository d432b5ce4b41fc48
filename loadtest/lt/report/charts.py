"""PNG charts for report.md: throughput vs concurrency, latency percentiles, throughput vs batch size,
allocation per operation, GC pauses; and the side-by-side's items/s per shape (Vault, echo, the floor,
cipherd). Each chart is drawn only when its runs are present."""

from pathlib import Path

import matplotlib

from ..campaign.figures import RunFigures

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _valid(runs):
    return [r for r in runs if r.measured]


def _save(fig, out: Path, name: str) -> Path:
    path = out / f"{name}.png"
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def concurrency(out, runs):
    pts = sorted((r.concurrency, r.rps, r.p99_ms or 0) for r in runs if r.family == "concurrency")
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label="RPC/s")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("concurrent calls")
    ax.set_ylabel("RPC/s (100 B gcm Encrypt)")
    ax2 = ax.twinx()
    ax2.plot([p[0] for p in pts], [p[2] for p in pts], "s--", color="tab:red", label="p99 ms")
    ax2.set_ylabel("p99 ms")
    lines = ax.get_lines() + ax2.get_lines()
    ax.legend(lines, [line.get_label() for line in lines], loc="upper left")
    ax.set_title("Throughput vs concurrency")
    return _save(fig, out, "throughput_vs_concurrency")


def latency(out, runs):
    if not runs:
        return None
    fig, ax = plt.subplots(figsize=(max(7, len(runs) * 0.45), 4.5))
    x = range(len(runs))
    for key, off in (("p50_ms", -0.25), ("p90_ms", 0), ("p99_ms", 0.25)):
        ax.bar([i + off for i in x], [getattr(r, key) or 0 for r in runs], width=0.25, label=key.replace("_ms", ""))
    ax.set_xticks(list(x), [r.name for r in runs], rotation=75, fontsize=7)
    ax.set_ylabel("ms")
    ax.set_title("Latency percentiles per run")
    ax.legend()
    return _save(fig, out, "latency_percentiles")


def batch(out, runs):
    pts = sorted((r.items_per_call, r.items_per_s) for r in runs if r.family == "batch")
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("items per EncryptBatch call")
    ax.set_ylabel("items/s")
    ax.set_title("Throughput vs batch size (100 B gcm)")
    return _save(fig, out, "throughput_vs_batch_size")


def allocation(out, runs):
    rs = [r for r in runs if r.alloc_per_item is not None]
    if not rs:
        return None
    fig, ax = plt.subplots(figsize=(max(7, len(rs) * 0.45), 4.5))
    ax.bar(range(len(rs)), [r.alloc_per_item for r in rs])
    ax.set_xticks(range(len(rs)), [r.name for r in rs], rotation=75, fontsize=7)
    ax.set_ylabel("allocated bytes per item (per call for unary)")
    ax.set_title("Server allocation per operation")
    return _save(fig, out, "allocation_per_op")


def gc(out, runs):
    if not runs:
        return None
    fig, ax = plt.subplots(figsize=(max(7, len(runs) * 0.45), 4.5))
    x = range(len(runs))
    ax.bar([i - 0.2 for i in x], [r.gc_pause_total_ms for r in runs], width=0.4, label="total pause ms")
    ax.bar([i + 0.2 for i in x], [r.gc_pause_max_ms for r in runs], width=0.4, label="max pause ms")
    ax.set_xticks(list(x), [r.name for r in runs], rotation=75, fontsize=7)
    ax.set_title("GC pauses per run")
    ax.legend()
    return _save(fig, out, "gc_pauses")


def side_by_side(out: Path, name: str, shapes: list[str], series: list[tuple[str, list]]):
    """Grouped bars of items/s per shape, one bar per server (and the floor), log scale: the servers differ
    by orders of magnitude. A missing or invalid run (None) leaves its bar out."""
    if not shapes or not any(v for _, values in series for v in values):
        return None
    fig, ax = plt.subplots(figsize=(max(8, len(shapes) * 1.8), 4.8))
    width = 0.8 / max(1, len(series))
    for i, (label, values) in enumerate(series):
        xs = [j + (i - (len(series) - 1) / 2) * width for j, v in enumerate(values) if v]
        ax.bar(xs, [v for v in values if v], width=width, label=label)
    ax.set_yscale("log")
    ax.set_xticks(range(len(shapes)), shapes, fontsize=8)
    ax.set_ylabel("items/s (log scale)")
    ax.set_title("Side by side: items/s per shape (floor: cipherd's CPU at gRPC + JCE cost per item)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    return _save(fig, out, name)


def draw(out: Path, runs: list[RunFigures]) -> list[Path]:
    rs = _valid(runs)
    return [p for p in (concurrency(out, rs), latency(out, rs), batch(out, rs), allocation(out, rs), gc(out, rs)) if p]

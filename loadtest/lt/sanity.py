"""Checks that a finished campaign's results are plausible: every run present, error-free and with
figures inside physical bounds, the report and its charts written. `make test` runs the short preset
with this check, so a runner or server change that silently breaks the measurements fails CI.

These are bounds a correct run cannot miss on any machine, not performance targets: speed is judged
by reading the report, never by a timed test."""

from pathlib import Path

from .campaign.figures import RunFigures
from .sidebyside import floor_report, lineup

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SBS_CHART = f"{floor_report.CHART_NAME}.png"
MAX_P99_MS = 5_000.0  # a call that takes seconds on loopback means something is stuck
MAX_ALLOC_PER_ITEM = 1 << 20  # a MiB per 100-byte item would be a leak, not a profile
REQUIRED_HOST_FACTS = ("arch", "cores", "jdk", "cipherd_commit", "cpu_model")


def problems(out: Path, summary: dict, expected_runs: list[str], side_by_side_expected: bool = False) -> list[str]:
    """Every way the result in `out` is not plausible; empty when it is."""
    found = []
    host = summary.get("host", {})
    found += [f"host.json lacks {k}" for k in REQUIRED_HOST_FACTS if not host.get(k)]
    runs = {r.name: r for r in summary.get("runs", [])}
    found += [f"run {n} is missing from summary.json" for n in expected_runs if n not in runs]
    for name, r in runs.items():
        found += [f"{name}: {p}" for p in run_problems(r, host.get("cores") or 1)]
    found += report_problems(out, list(runs))
    if side_by_side_expected and not summary.get("side_by_side"):
        found.append("the side-by-side did not run")
    found += side_by_side_problems(summary.get("side_by_side"))
    found += floor_problems(summary.get("side_by_side"))
    found += side_by_side_chart_problems(out, summary.get("side_by_side"))
    return found


def floor_problems(sbs) -> list[str]:
    """A side-by-side that completed must have measured the JCE (JMH), and with echo in the lineup a floor
    and cipherd ÷ floor for every shape."""
    if not sbs or sbs.get("error"):
        return []
    jce = sbs.get("jce")
    if jce is None or jce.error:
        return [f"floor not measured: {jce.error if jce else 'no JMH run of the JCE'}"]
    if lineup.ECHO not in tuple(sbs.get("servers") or lineup.ALL[:3]):
        return []
    floors = {f.shape: f for f in sbs.get("floor") or []}
    return [
        f"side-by-side floor of {s.name}: not measured" + (f" ({floors[s.name].missing})" if s.name in floors else "")
        for s in sbs.get("shapes", [])
        if s.name not in floors or floors[s.name].cipherd_vs_floor is None
    ]


def side_by_side_chart_problems(out: Path, sbs) -> list[str]:
    """A side-by-side that completed must have its items/s chart linked in report.md (report_problems checks
    that every linked chart is a PNG)."""
    report = out / "report.md"
    if not sbs or sbs.get("error") or not report.exists():
        return []
    if f"]({SBS_CHART})" not in report.read_text():
        return [f"report.md does not show the side-by-side chart {SBS_CHART}"]
    return []


def side_by_side_problems(sbs) -> list[str]:
    """A side-by-side that ran must have completed with every row valid, a row for every server it ran
    (the baseline's too) of every shape it lists, and with a baseline its ratio for every shape."""
    if not sbs:
        return []
    if sbs.get("error"):
        return [f"side-by-side did not complete: {sbs['error']}"]
    rows = sbs.get("rows", [])
    found = [f"side-by-side {r.label}: not valid ({r.problem})" for r in rows if not r.valid]
    if not rows:
        found.append("side-by-side has no rows")
    have = {(r.target, r.shape) for r in rows}
    servers = tuple(sbs.get("servers") or lineup.ALL[:3])  # older results: the three
    for shape in sbs.get("shapes", []):
        found += [
            f"side-by-side {t}-{shape.name}: no row"
            for t in lineup.for_shape(shape, servers)
            if (t, shape.name) not in have
        ]
    if lineup.BASELINE in servers:
        ratios = {b.shape: b.ratio for b in sbs.get("baseline") or []}
        found += [
            f"side-by-side cipherd ÷ baseline of {shape.name}: not measured"
            for shape in sbs.get("shapes", [])
            if ratios.get(shape.name) is None
        ]
    return found


def run_problems(r: RunFigures, host_cores: int) -> list[str]:
    if not r.valid:
        return [f"not valid ({r.problem or 'no figures'})"]
    found = []
    if not (r.count or 0) > 0 or not (r.rps or 0) > 0:
        found.append(f"no calls measured (count {r.count}, rps {r.rps})")
    if (r.server_calls or 0) < (r.count or 0):
        found.append(f"the server counted {r.server_calls} calls, fewer than ghz's {r.count}")
    p50, p99 = r.p50_ms, r.p99_ms
    if p50 is None or p99 is None or not 0 < p50 <= p99 <= MAX_P99_MS:
        found.append(f"latency out of bounds (p50 {p50} ms, p99 {p99} ms)")
    per_item = r.alloc_per_item
    if per_item is None or not 0 < per_item <= MAX_ALLOC_PER_ITEM:
        found.append(f"allocation per item out of bounds ({per_item})")
    if r.gc_count is None or r.gc_count < 0 or (r.gc_pause_total_ms or 0) < 0:
        found.append("GC figures missing or negative")
    for who in ("ghz_cores", "server_cores"):
        # CPU seconds per wall second: above the machine's cores means the clocks were misread
        cores = getattr(r, who) or 0
        if not 0 < cores <= host_cores * 1.05:
            found.append(f"{who} out of bounds ({getattr(r, who)} of {host_cores} cores)")
    return found


def report_problems(out: Path, run_names: list[str]) -> list[str]:
    report = out / "report.md"
    if not report.exists():
        return ["report.md was not written"]
    text = report.read_text()
    found = [f"report.md does not mention run {n}" for n in run_names if n not in text]
    for line in text.splitlines():
        if line.startswith("![") and "](" in line:
            png = out / line.split("](", 1)[1].rstrip(")")
            if not png.exists() or png.read_bytes()[:8] != PNG_MAGIC:
                found.append(f"chart {png.name} is linked but is not a PNG")
    return found

"""One ghz run's figures (`RunFigures`), derived in one place from its raw records: ghz's report, the
server's /metrics before and after, and CPU times."""

from dataclasses import dataclass, field

from ..measure import cipherd_metrics, prom
from ..rows import JsonRow
from .families import Run

CLIENT_BOUND_SHARE = 0.9  # ghz using >= 90% of a core, or more CPU than the server, bounds the figure


@dataclass(frozen=True)
class RunFigures(JsonRow):
    """A ghz run's row of summary.json. A run ghz could not complete has only its identity, valid=False and
    the problem; the figures are then None."""

    family: str
    name: str
    tags: dict
    items_per_call: int
    concurrency: int
    connections: int
    valid: bool
    problem: str | None = None
    tool: str = "ghz"
    count: int | None = None
    rps: float | None = None
    items_per_s: float | None = None
    p50_ms: float | None = None
    p90_ms: float | None = None
    p99_ms: float | None = None
    mean_ms: float | None = None
    grpc_errors: int | None = None
    item_errors: float | None = None
    status_codes: dict = field(default_factory=dict)
    error_distribution: dict = field(default_factory=dict)
    server_calls: float | None = None
    gc_count: float | None = None
    gc_pause_total_ms: float | None = None
    gc_pause_max_ms: float | None = None
    gc_pause_max_source: str = "micrometer"  # or "gc.log": the run's own pauses, by its time window
    allocated_bytes: float | None = None
    alloc_per_call: float | None = None
    alloc_per_item: float | None = None
    ghz_cores: float | None = None
    server_cores: float | None = None
    other_cores: float | None = None  # everything else on the machine during the run
    wall_s: float | None = None
    client_bound: bool = False
    box_saturated: bool = False

    @property
    def measured(self) -> bool:
        """ghz completed and reported figures (they may still show errors)."""
        return self.rps is not None


def _latency_ms(report: dict, pct: int):
    for d in report.get("latencyDistribution") or []:
        if d.get("percentage") == pct:
            return d["latency"] / 1e6  # ns -> ms
    return None


def run_figures(
    run: Run, report: dict, before, after, server_cpu_s: float, cores: int, system_busy_s: float = 0.0
) -> RunFigures:
    items = run.items_per_call
    identity = dict(
        family=run.family,
        name=run.name,
        tags=run.tags,
        items_per_call=items,
        concurrency=int(run.ghz.get("concurrency", 0)),
        connections=int(run.ghz.get("connections", 1)),
    )
    if "failed" in report:
        return RunFigures(**identity, valid=False, problem=report["failed"])
    wall = report["client"]["wall_s"]
    status = report.get("statusCodeDistribution") or {}
    grpc_errors = sum(v for k, v in status.items() if k != "OK")
    item_errors = cipherd_metrics.failed_items(before, after)
    calls_server = cipherd_metrics.method_calls(before, after, run.ghz["call"].rsplit("/", 1)[-1])
    alloc = cipherd_metrics.allocated_bytes(before, after)
    ghz_cores = report["client"]["cpu_s"] / wall if wall else 0.0
    server_cores = server_cpu_s / wall if wall else 0.0
    rps = report.get("rps", 0.0)
    count = report.get("count", 0)
    valid = grpc_errors == 0 and item_errors == 0 and count > 0
    busy = system_busy_s / wall if wall and system_busy_s else ghz_cores + server_cores
    return RunFigures(
        **identity,
        valid=valid,
        problem=None
        if valid
        else (
            f"{grpc_errors} gRPC errors, {item_errors:.0f} item errors"
            if count
            else "ghz counted no call (all within skipFirst? lower --skip-first)"
        ),
        count=count,
        rps=rps,
        items_per_s=rps * items,
        p50_ms=_latency_ms(report, 50),
        p90_ms=_latency_ms(report, 90),
        p99_ms=_latency_ms(report, 99),
        mean_ms=report.get("average", 0) / 1e6,
        grpc_errors=grpc_errors,
        item_errors=item_errors,
        status_codes=status,
        error_distribution=report.get("errorDistribution") or {},
        server_calls=calls_server,
        gc_count=cipherd_metrics.delta(before, after, "jvm_gc_pause_seconds_count"),
        gc_pause_total_ms=cipherd_metrics.delta(before, after, "jvm_gc_pause_seconds_sum") * 1e3,
        # Micrometer's _max is a decaying window (about 2 minutes): an upper bound for this run, replaced by the
        # run's own maximum from gc.log where the runner has the server's log (runner.with_logged_pauses)
        gc_pause_max_ms=prom.maximum(after, "jvm_gc_pause_seconds_max") * 1e3,
        allocated_bytes=alloc,
        alloc_per_call=alloc / calls_server if calls_server else None,
        alloc_per_item=alloc / (calls_server * items) if calls_server else None,
        ghz_cores=ghz_cores,
        server_cores=server_cores,
        other_cores=max(0.0, system_busy_s / wall - ghz_cores - server_cores) if wall and system_busy_s else None,
        wall_s=wall,
        client_bound=ghz_cores >= CLIENT_BOUND_SHARE or ghz_cores >= server_cores,
        box_saturated=busy >= 0.9 * cores,
    )

"""One side-by-side run's row (`SbsRow`), made in one place from h2load's figures, its request log and
what the server counted. Pure: no servers, no h2load."""

from dataclasses import dataclass
from typing import ClassVar

from ..rows import JsonRow
from .shapes import Shape
from .target import ServerFigures

CLIENT_BOUND_SHARE = 0.9


@dataclass(frozen=True)
class Rounds(JsonRow):
    """With --sbs-rounds N: how many rounds ran and were valid, each one's items/s and server CPU µs per
    item (`server_us_per_item`; None where the server counted no calls; empty in older results), the
    invalid ones."""

    count: int
    valid: int
    items_per_s: tuple
    invalid: tuple
    server_us_per_item: tuple = ()


@dataclass(frozen=True)
class SbsRow(JsonRow):
    """A row of sidebyside.json and summary.json's side_by_side.rows."""

    OMITTED_WHEN_NONE: ClassVar[tuple[str, ...]] = ("problem", "rounds", "server_thread_cpu_s")

    target: str
    shape: str
    method: str
    items_per_call: int
    clients: int
    rps: float
    items_per_s: float
    requests: dict  # h2load's request counts
    http_status: dict  # h2load's status classes
    log_statuses: dict  # HTTP status -> requests, from its --log-file
    mean_ms: float | None
    h2load_failed: int
    http_non_2xx: int
    server_calls: float | None
    server_non_ok: dict  # gRPC statuses other than OK the server counted, CANCELLED at stop aside
    cancelled_at_stop: float
    item_errors: float
    allocated_bytes: float | None
    alloc_per_call: float | None
    alloc_per_item: float | None
    h2load_cpu_s: float
    server_cpu_s: float
    h2load_cores: float
    server_cores: float
    other_cores: float | None
    wall_s: float
    valid: bool
    client_bound: bool
    box_saturated: bool
    problem: str | None = None
    p50_ms: float | None = None
    p90_ms: float | None = None
    p99_ms: float | None = None
    max_ms: float | None = None
    tool: str = "h2load"
    round: int = 1
    command: str = ""
    rounds: Rounds | None = None  # set on the picked row when several rounds ran
    server_thread_cpu_s: dict | None = None  # the server's CPU seconds in the run by thread kind, where known

    @property
    def errors(self) -> float:
        return self.h2load_failed + self.http_non_2xx + sum(self.server_non_ok.values()) + self.item_errors

    @property
    def label(self) -> str:
        return f"{self.target}-{self.shape}"


def row_figures(
    target: str,
    shape: Shape,
    h2: dict,
    lat: dict,
    log_statuses: dict,
    server_cpu_s: float,
    system_busy_s: float,
    cores: int,
    server: ServerFigures,
    round_no: int = 1,
    command: str = "",
) -> SbsRow:
    """One run's row: h2 is h2load.run's figures, lat the percentiles of its log."""
    items = shape.items
    client = h2.get("client", {})
    wall = client.get("wall_s") or 0.0
    req = h2.get("requests") or {}
    status = h2.get("status") or {}
    rps = h2.get("rps", 0.0)
    client_cores = client.get("cpu_s", 0.0) / wall if wall else 0.0
    server_cores = server_cpu_s / wall if wall else 0.0
    calls, alloc = server.calls, server.allocated_bytes
    non_ok = dict(server.non_ok)
    # h2load resets the streams still in flight when its duration ends: at most one per client, which
    # the server counts as CANCELLED. Those are not errors; more would be.
    cancelled = non_ok.get("CANCELLED", 0)
    if 0 < cancelled <= shape.clients:
        del non_ok["CANCELLED"]
    h2load_failed = req.get("failed", 0) + req.get("errored", 0) + req.get("timeout", 0)
    http_non_2xx = sum(v for k, v in status.items() if k != "2xx")
    item_errors = server.item_errors or 0
    problems = []
    if client.get("killed"):
        problems.append("h2load killed at its time limit")
    if not req.get("succeeded"):
        problems.append("no request succeeded")
    if h2load_failed:
        problems.append(
            f"h2load: {req.get('failed', 0)} failed, {req.get('errored', 0)} errored, {req.get('timeout', 0)} timeout"
        )
    if http_non_2xx:
        problems.append(f"{http_non_2xx} non-2xx HTTP replies")
    if non_ok:
        problems.append("server counted gRPC statuses " + ", ".join(f"{k}={v:.0f}" for k, v in non_ok.items()))
    if item_errors:
        problems.append(f"{item_errors:.0f} failed batch items")
    if calls is not None and req.get("succeeded") and calls < req["succeeded"]:
        problems.append(f"server answered {calls:.0f} calls, fewer than h2load's {req['succeeded']} successes")
    busy = system_busy_s / wall if wall and system_busy_s else client_cores + server_cores
    return SbsRow(
        target=target,
        shape=shape.name,
        method=shape.method,
        items_per_call=items,
        clients=shape.clients,
        rps=rps,
        items_per_s=rps * items,
        requests=req,
        http_status=status,
        log_statuses=log_statuses,
        mean_ms=(h2.get("time_ms") or {}).get("mean"),
        **lat,
        h2load_failed=h2load_failed,
        http_non_2xx=http_non_2xx,
        server_calls=calls,
        server_non_ok=non_ok,
        cancelled_at_stop=cancelled if "CANCELLED" not in non_ok else 0,
        item_errors=item_errors,
        allocated_bytes=alloc,
        alloc_per_call=alloc / calls if alloc is not None and calls else None,
        alloc_per_item=alloc / (calls * items) if alloc is not None and calls else None,
        h2load_cpu_s=client.get("cpu_s", 0.0),
        server_cpu_s=server_cpu_s,
        h2load_cores=client_cores,
        server_cores=server_cores,
        other_cores=max(0.0, system_busy_s / wall - client_cores - server_cores) if wall and system_busy_s else None,
        wall_s=wall,
        valid=not problems,
        problem="; ".join(problems) if problems else None,
        client_bound=client_cores >= CLIENT_BOUND_SHARE or client_cores >= server_cores,
        box_saturated=busy >= 0.9 * cores,
        round=round_no,
        command=command,
    )


def server_us_per_item(row: SbsRow) -> float | None:
    """The server's CPU µs per item it served in the run: its CPU seconds over the items of the calls it
    counted (warm-up included on both sides). Unlike items/s this does not move when another process on
    the machine takes the cores the server was waiting for; None without a count of calls."""
    if not row.server_calls or not row.items_per_call:
        return None
    return row.server_cpu_s / (row.server_calls * row.items_per_call) * 1e6

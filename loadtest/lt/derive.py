"""Turns one run's raw records (ghz report, /metrics before and after, CPU times) into its figures."""
from . import prom

NS = 1e9
CLIENT_BOUND_SHARE = 0.9   # ghz using >= 90% of a core, or more CPU than the server, bounds the figure


def _method(call: str) -> str:
    return call.rsplit("/", 1)[-1]


def _latency(report: dict, pct: int):
    for d in report.get("latencyDistribution") or []:
        if d.get("percentage") == pct:
            return d["latency"] / 1e6   # ns -> ms
    return None


def _delta(before, after, name, **labels) -> float:
    return prom.total(after, name, **labels) - prom.total(before, name, **labels)


def _server_calls(before, after, method: str) -> float:
    def count(samples):
        return sum(v for n, ls, v in samples if n == "grpc_server_processing_duration_seconds_count"
                   and ls.get("method", "").rsplit("/", 1)[-1] == method)
    return count(after) - count(before)


def _failed_ops(before, after) -> float:
    def bad(samples):
        return sum(v for n, ls, v in samples if n == "cipherd_crypto_operations_total"
                   and ls.get("outcome") != "ok")
    return bad(after) - bad(before)


def _eden(samples) -> float:
    return sum(v for n, ls, v in samples if n == "jvm_memory_used_bytes" and "Eden" in ls.get("id", ""))


def _allocated(before, after) -> float:
    """Bytes allocated between the scrapes. Micrometer adds to its counter only at each GC (the young
    generation's growth since the last one), so the eden still in use at each scrape is added back."""
    return _delta(before, after, "jvm_gc_memory_allocated_bytes_total") + _eden(after) - _eden(before)


def run_figures(run, report: dict, before, after, server_cpu_s: float, cores: int,
                system_busy_s: float = 0.0) -> dict:
    items = run.items_per_call
    row = {"tool": "ghz", "family": run.family, "name": run.name, "tags": run.tags, "items_per_call": items,
           "concurrency": int(run.ghz.get("concurrency", 0)), "connections": int(run.ghz.get("connections", 1))}
    if "failed" in report:
        row.update(valid=False, problem=report["failed"])
        return row
    wall = report["client"]["wall_s"]
    status = report.get("statusCodeDistribution") or {}
    grpc_errors = sum(v for k, v in status.items() if k != "OK")
    item_errors = _failed_ops(before, after)
    calls_server = _server_calls(before, after, _method(run.ghz["call"]))
    alloc = _allocated(before, after)
    ghz_cores = report["client"]["cpu_s"] / wall if wall else 0.0
    server_cores = server_cpu_s / wall if wall else 0.0
    rps = report.get("rps", 0.0)
    row.update({
        "count": report.get("count", 0),
        "rps": rps,
        "items_per_s": rps * items,
        "p50_ms": _latency(report, 50), "p90_ms": _latency(report, 90), "p99_ms": _latency(report, 99),
        "mean_ms": report.get("average", 0) / 1e6,
        "grpc_errors": grpc_errors,
        "item_errors": item_errors,
        "status_codes": status,
        "error_distribution": report.get("errorDistribution") or {},
        "server_calls": calls_server,
        "gc_count": _delta(before, after, "jvm_gc_pause_seconds_count"),
        "gc_pause_total_ms": _delta(before, after, "jvm_gc_pause_seconds_sum") * 1e3,
        # Micrometer's _max is a decaying window (about 2 minutes): an upper bound for this run
        "gc_pause_max_ms": prom.maximum(after, "jvm_gc_pause_seconds_max") * 1e3,
        "allocated_bytes": alloc,
        "alloc_per_call": alloc / calls_server if calls_server else None,
        "alloc_per_item": alloc / (calls_server * items) if calls_server else None,
        "ghz_cores": ghz_cores,
        "server_cores": server_cores,
        # everything else on the machine during the run (other processes, ghz before its start)
        "other_cores": max(0.0, system_busy_s / wall - ghz_cores - server_cores) if wall and system_busy_s else None,
        "wall_s": wall,
    })
    row["valid"] = grpc_errors == 0 and item_errors == 0 and row["count"] > 0
    if not row["valid"]:
        row["problem"] = f"{grpc_errors} gRPC errors, {item_errors:.0f} item errors"
    row["client_bound"] = ghz_cores >= CLIENT_BOUND_SHARE or ghz_cores >= server_cores
    busy = system_busy_s / wall if wall and system_busy_s else ghz_cores + server_cores
    row["box_saturated"] = busy >= 0.9 * cores
    return row

"""Deltas of cipherd's own /metrics between two scrapes: calls per method and status, failed crypto
items, bytes allocated. Shared by the ghz figures and the side-by-side's cipherd rows."""

from . import prom

CALLS = "grpc_server_processing_duration_seconds_count"


def delta(before, after, name: str, **labels) -> float:
    return prom.total(after, name, **labels) - prom.total(before, name, **labels)


def _method_of(labels: dict) -> str:
    return labels.get("method", "").rsplit("/", 1)[-1]


def method_calls(before, after, method: str) -> float:
    """Calls of `method` the server finished between the scrapes, any status (Micrometer's interceptor)."""

    def count(samples):
        return sum(v for n, ls, v in samples if n == CALLS and _method_of(ls) == method)

    return count(after) - count(before)


def calls_by_status(before, after, method: str) -> dict[str, float]:
    """Calls of `method` between the scrapes per gRPC statusCode label."""

    def by_status(samples):
        out = {}
        for n, ls, v in samples:
            if n == CALLS and _method_of(ls) == method:
                out[ls.get("statusCode", "?")] = out.get(ls.get("statusCode", "?"), 0.0) + v
        return out

    b, a = by_status(before), by_status(after)
    return {k: a.get(k, 0.0) - b.get(k, 0.0) for k in set(a) | set(b)}


def failed_items(before, after) -> float:
    """cipherd_crypto_operations_total with an outcome other than ok: items failing inside an OK call."""

    def bad(samples):
        return sum(v for n, ls, v in samples if n == "cipherd_crypto_operations_total" and ls.get("outcome") != "ok")

    return bad(after) - bad(before)


def _eden(samples) -> float:
    return sum(v for n, ls, v in samples if n == "jvm_memory_used_bytes" and "Eden" in ls.get("id", ""))


def allocated_bytes(before, after) -> float:
    """Bytes allocated between the scrapes. Micrometer adds to its counter only at each GC (the young
    generation's growth since the last one), so the eden still in use at each scrape is added back."""
    return delta(before, after, "jvm_gc_memory_allocated_bytes_total") + _eden(after) - _eden(before)

"""The floor per shape (issue 21): what gRPC plus the JCE allow. Echo's CPU per item (h2load's and the
server's cores ÷ items/s: the same client and gRPC stack with no crypto) plus the JCE's own cost of the
shape's operations per item (a rewrap is an open and a seal), set against cipherd's CPU per item measured
the same way. Allocation likewise: cipherd's bytes per item beyond echo's and beyond the provider's own
(JMH's `-prof gc` B/op of the shape's operations). Pure: median-round rows and a JceCost in, `FloorRow`s out;
only valid rows count."""

from dataclasses import dataclass

from ..rows import JsonRow
from .goals import find
from .jce import JceCost
from .lineup import BASELINE, CIPHERD, ECHO
from .row import SbsRow
from .shapes import Shape

STREAM, STREAM_BATCH = "reencrypt-stream-256", "reencrypt-batch-256"  # the same work, streamed and batched


@dataclass(frozen=True)
class FloorRow(JsonRow):
    """One shape's floor against cipherd (and the baseline); None where a figure is not measured."""

    shape: str
    jce_ops: tuple  # JCE operations per item, e.g. ("decrypt", "encrypt") for a rewrap
    echo_us_per_item: float | None  # echo's (h2load + server) CPU µs per item
    jce_us_per_item: float | None
    floor_us_per_item: float | None  # echo's + the JCE's
    cipherd_us_per_item: float | None
    cipherd_vs_floor: float | None  # floor µs/item ÷ cipherd µs/item: 1.0 = no CPU beyond gRPC + JCE
    floor_items_per_s: float | None  # cipherd's (h2load + server) cores ÷ the floor's µs per item
    cipherd_items_per_s: float | None
    cipherd_alloc_per_item: float | None
    echo_alloc_per_item: float | None
    alloc_over_echo: float | None  # cipherd's B/item − echo's
    baseline_us_per_item: float | None = None
    baseline_vs_floor: float | None = None
    missing: str | None = None  # why the floor is not measured
    jce_alloc_per_item: float | None = None  # the provider's own B per item (JMH -prof gc)
    alloc_over_echo_and_jce: float | None = None  # cipherd's B/item − echo's − the JCE's: what cipherd adds


@dataclass(frozen=True)
class StreamOverhead(JsonRow):
    """A server's extra CPU per item when the rewrap is streamed rather than batched: gRPC's per-message cost."""

    target: str
    stream_us_per_item: float
    batch_us_per_item: float
    extra_us_per_item: float


def cpu_us_per_item(row: SbsRow | None) -> float | None:
    """CPU µs per item of a valid run: (h2load cores + server cores) ÷ items/s × 1e6, i.e. both processes'
    CPU seconds over the items they moved."""
    if row is None or not row.valid or not row.items_per_s:
        return None
    return (row.h2load_cores + row.server_cores) / row.items_per_s * 1e6


def ratio(floor_us: float | None, us: float | None) -> float | None:
    return floor_us / us if floor_us is not None and us else None


def alloc(row: SbsRow | None) -> float | None:
    return row.alloc_per_item if row is not None and row.valid else None


def missing_reasons(echo_us, jce: JceCost, jce_us, cipherd_us) -> str | None:
    why = []
    if echo_us is None:
        why.append("no valid echo run")
    if jce_us is None:
        why.append(f"JCE not measured ({jce.error})" if jce.error else "JCE not measured")
    if cipherd_us is None:
        why.append("no valid cipherd run")
    return "; ".join(why) or None


def floor_row(rows: list[SbsRow], jce: JceCost, shape: Shape) -> FloorRow:
    # Echo runs no subject-bound shape: the transport floor of one is its plain twin's echo run (the same
    # method, items and payloads), the JCE's the same per item.
    echo_shape = shape.plain if shape.subjects and shape.plain else shape.name
    c, e, b = find(rows, CIPHERD, shape.name), find(rows, ECHO, echo_shape), find(rows, BASELINE, shape.name)
    echo_us, cipherd_us, baseline_us = cpu_us_per_item(e), cpu_us_per_item(c), cpu_us_per_item(b)
    jce_us = jce.us_per_item(shape.jce_ops)
    floor_us = echo_us + jce_us if echo_us is not None and jce_us is not None else None
    c_alloc, e_alloc = alloc(c), alloc(e)
    over_echo = c_alloc - e_alloc if c_alloc is not None and e_alloc is not None else None
    jce_alloc = jce.bytes_per_item(shape.jce_ops)
    return FloorRow(
        shape=shape.name,
        jce_ops=shape.jce_ops,
        echo_us_per_item=echo_us,
        jce_us_per_item=jce_us,
        floor_us_per_item=floor_us,
        cipherd_us_per_item=cipherd_us,
        cipherd_vs_floor=ratio(floor_us, cipherd_us),
        floor_items_per_s=(c.h2load_cores + c.server_cores) / floor_us * 1e6 if floor_us and cipherd_us else None,
        cipherd_items_per_s=c.items_per_s if cipherd_us is not None else None,
        cipherd_alloc_per_item=c_alloc,
        echo_alloc_per_item=e_alloc,
        alloc_over_echo=over_echo,
        baseline_us_per_item=baseline_us,
        baseline_vs_floor=ratio(floor_us, baseline_us),
        missing=missing_reasons(echo_us, jce, jce_us, cipherd_us),
        jce_alloc_per_item=jce_alloc,
        alloc_over_echo_and_jce=over_echo - jce_alloc if over_echo is not None and jce_alloc is not None else None,
    )


def floors(rows: list[SbsRow], jce: JceCost, shapes: list[Shape]) -> list[FloorRow]:
    """One FloorRow per shape (rows: the median rows of median_rounds)."""
    return [floor_row(rows, jce, s) for s in shapes]


def stream_overhead(rows: list[SbsRow]) -> list[StreamOverhead]:
    """ReEncryptStream's CPU per item minus ReEncryptBatch's, per server that has both valid."""
    out = []
    for t in (ECHO, CIPHERD, BASELINE):
        s, b = cpu_us_per_item(find(rows, t, STREAM)), cpu_us_per_item(find(rows, t, STREAM_BATCH))
        if s is not None and b is not None:
            out.append(StreamOverhead(target=t, stream_us_per_item=s, batch_us_per_item=b, extra_us_per_item=s - b))
    return out

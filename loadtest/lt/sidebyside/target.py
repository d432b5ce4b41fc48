"""A started server as the side-by-side sees it: an h2load spec per shape it has, its CPU time, and its own
count of calls, failures and allocation around a run (`ServerFigures`)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import h2load
from .protos import SERVICE
from .shapes import SHAPES, Shape


@dataclass(frozen=True)
class ServerFigures:
    """What a server says about one run; None where it cannot tell (Vault counts nothing for us)."""

    calls: float | None = None
    non_ok: dict = field(default_factory=dict)  # gRPC status -> calls
    item_errors: float = 0
    allocated_bytes: float | None = None


@dataclass
class Target:
    name: str
    specs: dict  # shape name -> h2load.Spec, only the shapes it has
    cpu_seconds: Callable[[], float]
    before: Callable[[], object]  # read just before a run
    after: Callable[[object, Shape], ServerFigures]  # (what before() read, the shape) -> figures
    restart: Callable[[], None] | None = None  # a new process, as it was set up (None: not restartable)
    thread_cpu: Callable[[], dict] | None = None  # CPU seconds of its threads by kind, now (None: unknown)


def grpc_specs(target: str, files: dict[str, Path], args) -> dict:
    """Every shape with a body file over h2c to a gRPC server, with the same framed body files for echo and
    cipherd (a sitting without subject-bound data has no subject shapes' files)."""
    return {
        s.name: h2load.Spec(
            f"http://{target}/{SERVICE}/{s.method}",
            files[s.name],
            s.clients,
            args.sbs_duration,
            args.sbs_h2load_warmup,
            h2load.GRPC_HEADERS,
        )
        for s in SHAPES
        if s.name in files
    }

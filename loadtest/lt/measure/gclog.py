"""GC pauses of one run from the server's own gc.log (-Xlog:gc*:file=gc.log:time,...), by the run's wall-clock
window: Micrometer's jvm_gc_pause_seconds_max is a maximum over a decaying window of about two minutes, so a
pause before the run shows in every run that follows it; the log says when each pause happened."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

# [2026-11-24T11:36:49.002+0000][0.223s][info][gc          ] GC(0) Pause Young (Normal) (...) 17M->5M(384M) 5.956ms
_PAUSE = re.compile(r"^\[(?P<time>[^\]]+)\]\[[^\]]*\]\[[^\]]*\]\[gc\s*\] GC\(\d+\) Pause .* (?P<ms>[\d.]+)ms$")


@dataclass(frozen=True)
class Pauses:
    count: int
    total_ms: float
    max_ms: float


def pauses(log: Path, start: float, end: float) -> Pauses | None:
    """The pauses that ended within [start, end] (Unix seconds); None when there is no log to read."""
    try:
        text = log.read_text(errors="replace")
    except OSError:
        return None
    found = []
    for line in text.splitlines():
        m = _PAUSE.match(line)
        if not m:
            continue
        at = datetime.strptime(m["time"], "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
        if start <= at <= end:
            found.append(float(m["ms"]))
    return Pauses(len(found), sum(found), max(found, default=0.0))

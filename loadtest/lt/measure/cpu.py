"""CPU time from /proc: of one process (a server) and of its threads by kind, and of the whole machine
(to see what else ran)."""

import os
import re
from pathlib import Path

# A thread's kind is its name without the number that tells it from its siblings ("C2 CompilerThread1",
# "grpc-default-worker-ELG-3-2", "GC Thread#0"); Linux keeps the first 15 bytes of a name.
_SIBLING_NUMBER = re.compile(r"[-#_ ]*[0-9][-#_ 0-9]*$")


def busy_seconds() -> float:
    """CPU seconds all cores spent not idle (idle and iowait excluded) since boot; 0 where /proc is absent."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a live process, from /proc/PID/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def thread_kind(name: str) -> str:
    """A thread's name without its trailing sibling number."""
    return _SIBLING_NUMBER.sub("", name) or name


def thread_cpu_seconds(pid: int) -> dict[str, float]:
    """User + system CPU time of a live process's threads, summed by kind (`thread_kind`), from
    /proc/PID/task/*/stat; a thread that ended since is no longer counted (its time stays in
    `process_cpu_seconds`)."""
    tick = os.sysconf("SC_CLK_TCK")
    kinds: dict[str, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue  # ended while listed
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        kind = thread_kind(name)
        kinds[kind] = kinds.get(kind, 0.0) + (int(fields[11]) + int(fields[12])) / tick
    return kinds

"""System-wide CPU use from /proc/stat, to see what else ran on the box during a run."""
import os


def busy_seconds() -> float:
    """CPU seconds all cores spent not idle (idle and iowait excluded) since boot; 0 where /proc is absent."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return 0.0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")

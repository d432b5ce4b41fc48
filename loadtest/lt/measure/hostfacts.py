"""The facts a result needs to be compared: architecture, CPU, cores, JDK, cipherd commit."""

import os
import platform
import socket
import subprocess
from datetime import UTC, datetime
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            key = line.split(":", 1)[0].strip().lower()
            if key in ("model name", "hardware", "cpu model", "processor") and ":" in line:
                value = line.split(":", 1)[1].strip()
                if value and not value.isdigit():
                    return value
    except OSError:
        pass
    return platform.processor() or "unknown"


def java_version(java: str) -> str:
    r = subprocess.run([java, "-version"], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    return " | ".join(line.strip() for line in r.stderr.splitlines() if line.strip())


def collect(java: str, jvm_flags: list[str], commit: str) -> dict:
    return {
        "time_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "arch": platform.machine(),
        "host": socket.gethostname(),
        "kernel": platform.release(),
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "load_average_at_start": os.getloadavg(),
        "jdk": java_version(java),
        "jvm_flags": jvm_flags,
        "cipherd_commit": commit,
    }


def collect_for_target(target: str, metrics_url: str, label: str, commit: str) -> dict:
    """The facts of a run against an already running cipherd (--target): this host is only the load
    generator; the server's JDK and flags are its deployment's (its /metrics names the JVM)."""
    facts = {
        "time_utc": datetime.now(UTC).isoformat(timespec="seconds"),
        "arch": label or "target",
        "host": socket.gethostname(),
        "kernel": platform.release(),
        "cpu_model": cpu_model(),
        "cores": os.cpu_count(),
        "load_average_at_start": os.getloadavg(),
        "jdk": "the target's own",
        "jvm_flags": [],
        "cipherd_commit": commit,
    }
    facts["target"] = {
        "address": target,
        "metrics_url": metrics_url,
        "label": label,
        "load_generator_arch": platform.machine(),
    }
    return facts

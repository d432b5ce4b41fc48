"""The server the pages talk to: `make run`'s command line (embedded key store in ./data, a generated key
store password in data/keystore-password, the key `demo`, the audit trail in data/audit.log) in the test's checkout, on free ports, started by
the Python client's test harness (clients/python/tests/server.py), as the attack and crosslang suites are."""

from __future__ import annotations

from pathlib import Path

import grpc

from server import RunningServer, jar_and_java, start_server

Server = RunningServer


def jar() -> Path:
    """The jar `make build` makes; missing, it skips the test locally and fails it in CI."""
    return jar_and_java()[0]


def start(workdir: Path) -> Server:
    """Starts the jar as `make run` does, its keys in `workdir`/data."""
    data = workdir / "data"
    data.mkdir(mode=0o700, exist_ok=True)
    return start_server(
        workdir,
        ["--demo-key", "demo", "--audit-log", str(data / "audit.log"), "--audit-required"],
        grpc.insecure_channel,
        password=data / "keystore-password",
    )

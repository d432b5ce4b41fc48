"""Starts the real cipherd jar for the tests: a fresh data dir, a generated key store password, a free
port (the server picks it and logs it), ready once the gRPC health service says SERVING."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

_LISTENING = re.compile(r"cipherd listening on \S+:(\d+) ")
# The port before the first "/" of the path; a JSON log line (the image's) escapes that "/" as "\/".
_PROBES = re.compile(r"metrics and probes on http:\S*?:(\d+)\\?/")
START_TIMEOUT_S = 120.0


def jar_and_java() -> tuple[Path, str]:
    """The jar `make build` makes; missing, it skips the test locally and fails it in CI."""
    here = Path(__file__).resolve().parents[3]
    jar = Path(os.environ.get("CIPHERD_JAR", here / "server" / "target" / "cipherd.jar"))
    if not jar.is_file():
        message = f"no server jar at {jar}: run `make build` (or set CIPHERD_JAR)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return jar, os.environ.get("CIPHERD_JAVA", "java")


@dataclass
class RunningServer:
    process: subprocess.Popen[str]
    port: int
    http_port: int
    log: list[str] = field(default_factory=list)

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_server(
    workdir: Path, args: list[str], channel: Callable[[str], grpc.Channel], password: Path | None = None
) -> RunningServer:
    """Starts cipherd with `args` after the common ones; `channel(target)` opens a channel for the health probe.

    Its keys are in `workdir`/data, the key store password in `password` (default `workdir`/keystore-password),
    made if missing. A server started again on the same `workdir` (once the first has stopped) opens the same key
    store."""
    if os.environ.get("CIPHERD_NO_SERVER"):
        raise RuntimeError("pytest --no-server: this test starts a server; mark it @pytest.mark.server")
    jar, java = jar_and_java()
    workdir.mkdir(parents=True, exist_ok=True)
    password = password or workdir / "keystore-password"
    if not password.exists():
        password.write_text(secrets.token_urlsafe(24))
        password.chmod(0o600)
    command = [
        java,
        *os.environ.get("CIPHERD_JAVA_OPTS", "").split(),
        "-jar",
        str(jar),
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--http-port",
        "0",
        "--data-dir",
        str(workdir / "data"),
        "--keystore-password-file",
        str(password),
        "--shutdown-grace",
        "PT1S",
        *args,
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log: list[str] = []
    found = threading.Event()
    ports: dict[str, int] = {}

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            log.append(line)
            for name, pattern in (("grpc", _LISTENING), ("http", _PROBES)):
                if (m := pattern.search(line)) and name not in ports:
                    ports[name] = int(m.group(1))
            if len(ports) == 2:
                found.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not found.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("cipherd did not start:\n" + "".join(log[-30:]))
    server = RunningServer(process, ports["grpc"], ports["http"], log)
    _wait_serving(server, channel, deadline)
    return server


def _wait_serving(server: RunningServer, channel: Callable[[str], grpc.Channel], deadline: float) -> None:
    with channel(server.target) as ch:
        health = health_pb2_grpc.HealthStub(ch)
        while True:
            try:
                status = health.Check(health_pb2.HealthCheckRequest(), timeout=5).status
                if status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError("cipherd never reported SERVING:\n" + "".join(server.log[-30:]))
            time.sleep(0.2)

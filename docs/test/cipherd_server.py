"""The server the pages talk to: `make run`'s command line (embedded key store in ./data, a generated key
store password in data/keystore-password, the key `demo`) in the test's checkout, on free ports."""
from __future__ import annotations

import os
import re
import secrets
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

_GRPC = re.compile(r"cipherd listening on \S+:(\d+) ")
_HTTP = re.compile(r"metrics and probes on http://\S+:(\d+)/")
START_TIMEOUT_S = 120.0


@dataclass
class Server:
    process: subprocess.Popen[str]
    port: int
    http_port: int
    log: list[str]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start(workdir: Path, jar: Path, java: str) -> Server:
    """Starts the jar in `workdir`, its keys in `workdir`/data."""
    data = workdir / "data"
    data.mkdir(mode=0o700, exist_ok=True)
    password = data / "keystore-password"
    password.write_text(secrets.token_urlsafe(32))
    password.chmod(0o600)
    command = [java, *os.environ.get("CIPHERD_JAVA_OPTS", "").split(), "-jar", str(jar),
               "--port", "0", "--http-port", "0", "--shutdown-grace", "PT1S",
               "--data-dir", "data", "--keystore-password-file", "data/keystore-password", "--demo-key", "demo"]
    process = subprocess.Popen(command, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log: list[str] = []
    ports: dict[str, int] = {}
    both = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            log.append(line)
            for name, pattern in (("grpc", _GRPC), ("http", _HTTP)):
                if (m := pattern.search(line)) and name not in ports:
                    ports[name] = int(m[1])
            if len(ports) == 2:
                both.set()

    threading.Thread(target=read, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT_S
    while not both.wait(0.2):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError("cipherd did not start:\n" + "".join(log[-30:]))
    server = Server(process, ports["grpc"], ports["http"], log)
    with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        health = health_pb2_grpc.HealthStub(channel)
        while True:
            try:
                if health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == health_pb2.HealthCheckResponse.SERVING:
                    return server
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError("cipherd never reported SERVING:\n" + "".join(log[-30:]))
            time.sleep(0.2)

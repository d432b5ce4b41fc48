"""The bare grpc-java echo ceiling (loadtest/echo/): built with server/pom.xml's grpc-java and protobuf
versions (passed as -D, checked in the jar's manifest), started on 127.0.0.1 like cipherd."""

import os
import re
import subprocess
import zipfile
from pathlib import Path

from .. import tools
from ..measure import prom
from .process import HOST, ManagedProcess, free_port

ECHO_DIR = tools.REPO / "loadtest" / "echo"
JAR = ECHO_DIR / "target" / "cipherd-echo.jar"
SERVER_POM = tools.REPO / "server" / "pom.xml"
VERSION_PROPS = ("grpc.version", "protobuf.version")
MANIFEST_KEYS = {"grpc.version": "Grpc-Version", "protobuf.version": "Protobuf-Version"}


def pom_properties(pom_text: str, names=VERSION_PROPS) -> dict:
    """The values of <name>...</name> properties in a pom's <properties> block."""
    block = re.search(r"<properties>(.*?)</properties>", pom_text, re.S)
    found = {}
    for name in names:
        m = re.search(rf"<{re.escape(name)}>\s*([^<\s]+)\s*</{re.escape(name)}>", block.group(1) if block else "")
        if m:
            found[name] = m.group(1)
    return found


def server_versions() -> dict:
    v = pom_properties(SERVER_POM.read_text())
    if set(v) != set(VERSION_PROPS):
        raise SystemExit(f"loadtest: {SERVER_POM} has no {' / '.join(VERSION_PROPS)} property")
    return v


def manifest_versions(jar: Path) -> dict:
    with zipfile.ZipFile(jar) as z:
        text = z.read("META-INF/MANIFEST.MF").decode()
    attrs = dict(line.split(": ", 1) for line in text.replace("\r", "").splitlines() if ": " in line)
    return {prop: attrs.get(key) for prop, key in MANIFEST_KEYS.items()}


def _stale(versions: dict) -> bool:
    if not JAR.exists() or manifest_versions(JAR) != versions:
        return True
    newest = max(
        p.stat().st_mtime
        for p in [
            ECHO_DIR / "pom.xml",
            *ECHO_DIR.glob("src/**/*.java"),
            *(tools.REPO / "proto").glob("cipherd/v1/*.proto"),
        ]
    )
    return newest > JAR.stat().st_mtime


def build(java_home: Path) -> dict:
    """Builds the echo jar if missing or stale; returns the versions it is built with."""
    versions = server_versions()
    if _stale(versions):
        print(
            f"loadtest: building the echo ceiling with grpc-java {versions['grpc.version']}, "
            f"protobuf {versions['protobuf.version']}",
            flush=True,
        )
        cmd = [
            str(tools.REPO / "server" / "mvnw"),
            "-B",
            "-q",
            "--no-transfer-progress",
            "-f",
            str(ECHO_DIR / "pom.xml"),
            "package",
            *[f"-D{k}={v}" for k, v in versions.items()],
        ]
        env = {
            **os.environ,
            "JAVA_HOME": str(java_home),
            "MAVEN_OPTS": os.environ.get("MAVEN_OPTS", "--sun-misc-unsafe-memory-access=allow"),
        }
        if subprocess.run(cmd, env=env).returncode != 0 or not JAR.exists():
            raise SystemExit("loadtest: the echo ceiling did not build (loadtest/echo)")
    built = manifest_versions(JAR)
    if built != versions:
        raise SystemExit(f"loadtest: echo jar built with {built}, server/pom.xml says {versions}")
    return versions


class Echo:
    """The echo jar on free loopback ports (gRPC and /stats), with cipherd's GC log and JFR flags."""

    def __init__(self, java: Path, results: Path, extra_jvm: list[str]):
        self.java, self.results, self.extra_jvm = str(java), results, extra_jvm
        self.port, self.stats_port = free_port(), free_port()
        self.process = ManagedProcess("echo", results / "echo.log")

    @property
    def target(self) -> str:
        return f"{HOST}:{self.port}"

    @property
    def stats_url(self) -> str:
        return f"http://{HOST}:{self.stats_port}/stats"

    def start(self, timeout: float = 60.0) -> None:
        # the same GC log and JFR recording as cipherd gets (servers/cipherd.py), so both JVMs pay the same
        self.process.launch(
            [
                self.java,
                *self.extra_jvm,
                f"-Xlog:gc*:file={self.results / 'echo-gc.log'}:time,uptime,level,tags",
                f"-XX:StartFlightRecording=filename={self.results / 'echo.jfr'},settings=profile",
                "-jar",
                str(JAR),
                str(self.port),
                str(self.stats_port),
            ]
        )
        self.process.wait_ready(lambda: self.scrape() is not None, timeout)

    def scrape(self) -> str:
        return prom.scrape(self.stats_url)

    def cpu_seconds(self) -> float:
        return self.process.cpu_seconds()

    def stop(self, grace: float = 15.0) -> None:
        self.process.stop(grace)

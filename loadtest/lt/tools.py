"""Finds or installs what a campaign needs: ghz, grpcurl (one-off calls), the JDK and the server jar."""

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GHZ = ("ghz", "github.com/bojand/ghz/cmd/ghz@v0.120.0")
GRPCURL = ("grpcurl", "github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3")
JAR = REPO / "server" / "target" / "cipherd.jar"


def go_tool(name: str, module: str) -> str:
    """Path of a pinned Go tool, installed once by .ci/install-go-tool."""
    r = subprocess.run([str(REPO / ".ci" / "install-go-tool"), name, module], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        raise SystemExit(f"loadtest: could not install {name} ({module}); see the message above")
    return r.stdout.strip().splitlines()[-1]


def jdk_home() -> Path:
    r = subprocess.run([str(REPO / ".ci" / "jdk-home")], stdout=subprocess.PIPE, text=True)
    if r.returncode != 0:
        raise SystemExit("loadtest: no JDK 21+ found (.ci/jdk-home explains where it looked)")
    return Path(r.stdout.strip())


def build_jar(skip: bool) -> Path:
    if skip and JAR.exists():
        return JAR
    print("loadtest: building the server jar (make build)", flush=True)
    if subprocess.run(["make", "-C", str(REPO), "build"]).returncode != 0 or not JAR.exists():
        raise SystemExit("loadtest: `make build` failed; the server jar is needed")
    return JAR


def git_commit() -> str:
    r = subprocess.run(
        ["git", "-C", str(REPO), "describe", "--always", "--dirty", "--abbrev=12"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    return r.stdout.strip() or "unknown"

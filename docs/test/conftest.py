"""What the pages run against: a copy of this checkout (so blocks that write files or build binaries leave
the working tree alone), one server started as `make run` starts it, and the toolchains `make test-python`
and `make test-ts` installed, standing in for the downloads a reader's install lines make."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import cipherd_server
import pytest
from page import Reader

REPO = Path(__file__).resolve().parents[2]
TOOLCHAINS = Path(__file__).resolve().parent / "toolchains"
GRPCURL = ("grpcurl", "github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3")

# A reader's install line -> what the test runs instead (docs/README.md, "Docs that run").
SUBSTITUTES = {
    "python3 -m venv .venv && .venv/bin/pip install ./clients/python": f"'{TOOLCHAINS}/python-client-venv' .venv",
    "(cd clients/typescript && npm ci && npm run build && npm pack --pack-destination /tmp)": ":",
    "npm install /tmp/cipherd-client-0.1.0.tgz": f"'{TOOLCHAINS}/typescript-client-package'",
}


@pytest.fixture(scope="session")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tracked and untracked-but-not-ignored files of this checkout, copied; the jar linked in."""
    root = tmp_path_factory.mktemp("checkout")
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name, follow_symlinks=False)
    (root / "server").mkdir(exist_ok=True)
    (root / "server" / "target").symlink_to(cipherd_server.jar().parent)
    return root


@pytest.fixture(scope="session")
def server(checkout: Path) -> Iterator[cipherd_server.Server]:
    running = start_server(checkout)
    yield running
    running.stop()


@pytest.fixture(scope="session")
def tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of the commands the pages call that a reader installs by hand: grpcurl."""
    grpcurl = (
        os.environ.get("GRPCURL")
        or subprocess.run(
            [str(REPO / ".ci" / "install-go-tool"), *GRPCURL], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    bin_dir = tmp_path_factory.mktemp("bin")
    (bin_dir / "grpcurl").symlink_to(grpcurl)
    return bin_dir


def start_server(workdir: Path) -> cipherd_server.Server:
    return cipherd_server.start(workdir)


def environment_for(server: cipherd_server.Server, tools: Path) -> dict[str, str]:
    """The environment of a page's shell session: a reader's, with the test's tools and server."""
    target = f"127.0.0.1:{server.port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CIPHERD_", "PYTEST_"))}
    return {
        **env,
        "PATH": f"{tools}{os.pathsep}{env.get('PATH', '')}",
        # What cipherctl, the Go quick start and the Python examples default to is 127.0.0.1:50051.
        "CIPHERD_ADDR": target,
        "CIPHERD_TARGET": target,
        # As on a terminal: stdout and stderr lines come out in the order they are written.
        "PYTHONUNBUFFERED": "1",
        "DOCS_CLIENT_VENV": sys.prefix,
        "DOCS_TS_CLIENT": str(REPO / "clients" / "typescript"),
    }


@pytest.fixture(scope="session")
def environment(server: cipherd_server.Server, tools: Path) -> dict[str, str]:
    return environment_for(server, tools)


@pytest.fixture(scope="session")
def reader(server: cipherd_server.Server, checkout: Path) -> Reader:
    return reader_for(server, checkout)


def reader_for(server: cipherd_server.Server, checkout: Path) -> Reader:
    def rewrite(text: str) -> str:
        return text.replace("127.0.0.1:50051", f"127.0.0.1:{server.port}").replace(
            "127.0.0.1:9464", f"127.0.0.1:{server.http_port}"
        )

    python = f"PYTHONPATH='{checkout}/clients/python/src' '{sys.executable}'"
    return Reader(rewrite, SUBSTITUTES, python)

"""Session-wide cipherd servers (plaintext; TLS with bearer tokens; mutual TLS) and clients for the tests."""

from __future__ import annotations

import hashlib
import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from certs import Authority, Pem

import cipherd
from server import RunningServer, start_server

TOKEN = "app-token-for-tests"

# The fixtures that start a server; a test that starts its own is marked `server`.
SERVER_FIXTURES = {"plain_server", "token_server", "mtls_server", "traced_server"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--no-server",
        action="store_true",
        help="only the tests that start no server: the fast inner loop of make check",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not config.getoption("--no-server"):
        return
    os.environ["CIPHERD_NO_SERVER"] = "1"  # start_server refuses: a test that starts one unmarked fails
    kept: list[pytest.Item] = []
    needs_server: list[pytest.Item] = []
    for item in items:
        uses = SERVER_FIXTURES & set(getattr(item, "fixturenames", ()))
        (needs_server if uses or item.get_closest_marker("server") else kept).append(item)
    items[:] = kept
    config.hook.pytest_deselected(items=needs_server)


@dataclass(frozen=True)
class Pki:
    ca: Pem
    server: Pem
    billing: Pem  # a client the mTLS policy knows
    stranger: Pem  # a client signed by the same CA that no rule names
    other_ca: Pem  # a CA the server does not trust


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    d = tmp_path_factory.mktemp("pki")
    ca = Authority(d)
    other = Authority(d / "other", "other CA")
    return Pki(
        ca.pem,
        ca.issue("server", "localhost", server=True),
        ca.issue("billing", "billing.test"),
        ca.issue("stranger", "stranger.test"),
        other.pem,
    )


# These servers take key material in the clear too: the tests of import_key predate wrapped import.
# test_key_import.py starts one without it.
PLAINTEXT_IMPORT = ["--allow-plaintext-key-import"]


def _serve(workdir: Path, args: list[str], channel: object) -> Iterator[RunningServer]:
    server = start_server(workdir, args, channel)  # type: ignore[arg-type]
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def plain_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    yield from _serve(
        tmp_path_factory.mktemp("plain"), ["--demo-key", "demo", *PLAINTEXT_IMPORT], grpc.insecure_channel
    )


@pytest.fixture(scope="session")
def token_server(tmp_path_factory: pytest.TempPathFactory, pki: Pki) -> Iterator[RunningServer]:
    d = tmp_path_factory.mktemp("token")
    policy = d / "policy.yaml"
    policy.write_text(f"""callers:
  app:
    token_sha256: {hashlib.sha256(TOKEN.encode()).hexdigest()}
    rules:
      - keys: ["app-*"]
        operations: [encrypt, decrypt, admin, import, inspect]
""")
    creds = grpc.ssl_channel_credentials(pki.ca.cert_bytes())
    yield from _serve(
        d,
        [
            "--tls-cert",
            str(pki.server.cert),
            "--tls-key",
            str(pki.server.key),
            "--access-policy",
            str(policy),
            *PLAINTEXT_IMPORT,
        ],
        lambda t: grpc.secure_channel(t, creds),
    )


@pytest.fixture(scope="session")
def mtls_server(tmp_path_factory: pytest.TempPathFactory, pki: Pki) -> Iterator[RunningServer]:
    d = tmp_path_factory.mktemp("mtls")
    policy = d / "policy.yaml"
    policy.write_text("""callers:
  billing.test:
    rules:
      - keys: ["billing-*"]
        operations: [encrypt, decrypt, admin, import]
""")
    creds = grpc.ssl_channel_credentials(pki.ca.cert_bytes(), pki.billing.key_bytes(), pki.billing.cert_bytes())
    yield from _serve(
        d,
        [
            "--tls-cert",
            str(pki.server.cert),
            "--tls-key",
            str(pki.server.key),
            "--tls-client-ca",
            str(pki.ca.cert),
            "--access-policy",
            str(policy),
            *PLAINTEXT_IMPORT,
        ],
        lambda t: grpc.secure_channel(t, creds),
    )


@pytest.fixture
def client(plain_server: RunningServer) -> Iterator[cipherd.Client]:
    with cipherd.Client(plain_server.target, timeout=30) as c:
        yield c


@pytest.fixture
def key_name() -> str:
    """A fresh key name, so tests sharing a server never see each other's keys."""
    return f"t-{uuid.uuid4().hex[:16]}"

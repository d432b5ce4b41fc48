"""The servers the attacks share: one with TLS, bearer tokens and an access policy naming one caller per
role an attacker may hold; the PKI they trust. Servers only one attack needs start in that attack's file."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from certs import Pem
from policy import Caller, Rule, write_policy
from servers import Pki, Target, has_option, serve, tls_and_policy

EVERY_KEY = ("*",)


@dataclass(frozen=True)
class Callers:
    """The policy server's callers, all by bearer token, each allowed what its name says."""

    admin: Caller = Caller("admin", [Rule(EVERY_KEY, ["encrypt", "decrypt", "admin", "import", "inspect", "index"])])
    rewrapper: Caller = Caller("rewrapper", [Rule(EVERY_KEY, ["reencrypt"])])
    reader_writer: Caller = Caller("reader-writer", [Rule(EVERY_KEY, ["decrypt", "encrypt"])])
    refused: Caller = Caller("refused", [Rule(["nothing-*"], ["encrypt"])])
    lister: Caller = Caller("lister", [Rule(["a-*"], ["inspect"])])
    admin_only: Caller = Caller("admin-only", [Rule(EVERY_KEY, ["admin"])])
    importer: Caller = Caller("importer", [Rule(EVERY_KEY, ["import"])])

    def all(self) -> list[Caller]:
        return [
            self.admin,
            self.rewrapper,
            self.reader_writer,
            self.refused,
            self.lister,
            self.admin_only,
            self.importer,
        ]


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="session")
def callers() -> Callers:
    return Callers()


@pytest.fixture(scope="session")
def server_pem(pki: Pki) -> Pem:
    """The certificate every TLS server here serves (127.0.0.1 and localhost)."""
    return pki.issue("server", "localhost", server=True)


@pytest.fixture(scope="session")
def policy_server(
    tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem, callers: Callers
) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("policy")
    policy = write_policy(d / "policy.yaml", callers.all())
    # The attacks on this server import keys in the clear (they predate wrapped import, which
    # test_import_jobs.py attacks on a server of its own); jars before the setting had no such option.
    plaintext_import = ["--allow-plaintext-key-import"] if has_option("--allow-plaintext-key-import") else []
    with serve(
        d,
        [
            *tls_and_policy(server_pem, policy),
            *plaintext_import,
        ],
        ca=pki.pem,
    ) as target:
        yield target


def fresh(prefix: str) -> str:
    """A key name no other attack uses."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"

"""The jar under attack: started by clients/python's harness (tests/server.py: CIPHERD_JAR, CIPHERD_JAVA,
CIPHERD_JAVA_OPTS, free ports on 127.0.0.1), reached by raw gRPC stubs over channels that each open their
own connection and accept answers far larger than any budget, so an oversized answer is measured
instead of being cut off by the client."""

from __future__ import annotations

import functools
import ipaddress
import os
import subprocess
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import grpc
from certs import Authority, Pem, _write
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from cipherd.v1 import crypto_service_pb2_grpc as crypto_grpc
from cipherd.v1 import key_admin_service_pb2_grpc as admin_grpc
from server import RunningServer, jar_and_java, start_server

_BIG = 64 * 1024 * 1024
CHANNEL_OPTIONS: list[tuple[str, int]] = [
    # A channel of its own per call site: grpcio otherwise shares one connection between channels.
    ("grpc.use_local_subchannel_pool", 1),
    ("grpc.max_receive_message_length", _BIG),
    ("grpc.max_send_message_length", _BIG),
    ("grpc.max_metadata_size", _BIG),
    ("grpc.absolute_max_metadata_size", _BIG),
]


@dataclass(frozen=True)
class Target:
    """A running server and how to reach it: TLS roots, and a client certificate under mutual TLS."""

    server: RunningServer
    ca: Pem | None = None

    def channel(self, client: Pem | None = None) -> grpc.Channel:
        if self.ca is None:
            return grpc.insecure_channel(self.server.target, options=CHANNEL_OPTIONS)
        creds = grpc.ssl_channel_credentials(
            self.ca.cert_bytes(), client.key_bytes() if client else None, client.cert_bytes() if client else None
        )
        return grpc.secure_channel(self.server.target, creds, options=CHANNEL_OPTIONS)


def scrape(target: Target) -> str:
    """The server's /metrics, as Prometheus text (its HTTP port needs no credentials)."""
    url = f"http://127.0.0.1:{target.server.http_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        return str(response.read().decode())


def metric_sum(target: Target, series: str, *labels: str) -> float:
    """The sum of the server's samples of `series` whose labels include each of `labels` (`name="value"`)."""
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in scrape(target).splitlines()
        if (line.startswith(series + "{") or line.startswith(series + " ")) and all(label in line for label in labels)
    )


class Stubs:
    """Both services over one channel (one connection)."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.channel = channel
        self.crypto = crypto_grpc.CryptoServiceStub(channel)
        self.admin = admin_grpc.KeyAdminServiceStub(channel)


@contextmanager
def connect(target: Target, client: Pem | None = None) -> Iterator[Stubs]:
    channel = target.channel(client)
    try:
        yield Stubs(channel)
    finally:
        channel.close()


def tls_and_policy(server_pem: Pem, policy: Path) -> list[str]:
    """The arguments most attack servers start with: TLS with `server_pem`, callers named by `policy`."""
    return ["--tls-cert", str(server_pem.cert), "--tls-key", str(server_pem.key), "--access-policy", str(policy)]


@contextmanager
def serve(workdir: Path, args: Sequence[str], ca: Pem | None = None, probe: Pem | None = None) -> Iterator[Target]:
    """Starts the jar with `args` (after the harness's own) and stops it on exit; `probe` is the client
    certificate the start-up health check presents under mutual TLS."""

    def channel(address: str) -> grpc.Channel:
        if ca is None:
            return grpc.insecure_channel(address)
        return grpc.secure_channel(
            address,
            grpc.ssl_channel_credentials(
                ca.cert_bytes(), probe.key_bytes() if probe else None, probe.cert_bytes() if probe else None
            ),
        )

    server = start_server(workdir, list(args), channel)
    try:
        yield Target(server, ca)
    finally:
        server.stop()


@functools.cache
def help_text() -> str:
    """`--help` of the jar under attack, to find out which options it has."""
    jar, java = jar_and_java()
    command = [java, *os.environ.get("CIPHERD_JAVA_OPTS", "").split(), "-jar", str(jar), "--help"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout + done.stderr


def has_option(name: str) -> bool:
    # A long option name is followed by its description on the next line, so by a line break.
    text = help_text()
    return any(f"{name}{end}" in text for end in ("=", " ", "\n"))


class Pki(Authority):
    """A CA that also signs certificates with any subject CN (or none: "") and any subject alternative names."""

    def issue_with(self, stem: str, cn: str, names: Sequence[x509.GeneralName]) -> Pem:
        key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)] if cn else [])
        builder = self._builder(subject, key.public_key())
        if names:
            # RFC 5280 4.2.1.6: with an empty subject the SAN extension must be critical.
            builder = builder.add_extension(x509.SubjectAlternativeName(list(names)), critical=not cn)
        return _write(self.directory, stem, builder.sign(self._key, hashes.SHA256()), key)


IP_LOOPBACK = x509.IPAddress(ipaddress.ip_address("127.0.0.1"))

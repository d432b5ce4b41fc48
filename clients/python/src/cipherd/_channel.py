"""Channel credentials, options and call metadata, shared by the sync and asyncio clients."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from typing import TypeVar

import grpc

from cipherd.types import TlsConfig

DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
C = TypeVar("C")


def open_channel(
    target: str,
    tls: TlsConfig | None,
    plaintext: bool,
    max_message_bytes: int,
    secure: Callable[..., C],
    insecure: Callable[..., C],
) -> C:
    """A channel from grpc (sync) or grpc.aio's secure_channel/insecure_channel.

    Plaintext only when asked for (`plaintext`) or, without a `tls`, to a loopback target; any other
    target gets TLS with the system roots, so plaintexts and tokens never cross a network unencrypted
    by default (as the server refuses plaintext off loopback)."""
    if plaintext and tls is not None:
        raise ValueError("insecure=True conflicts with tls")
    if plaintext or (tls is None and is_loopback(target)):
        return insecure(target, options(None, max_message_bytes))
    tls = tls if tls is not None else TlsConfig()
    return secure(target, credentials(tls), options(tls, max_message_bytes))


def is_loopback(target: str) -> bool:
    """Whether a host:port target names this machine: localhost, 127.0.0.0/8 or ::1."""
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return False
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def credentials(tls: TlsConfig) -> grpc.ChannelCredentials:
    if (tls.cert is None) != (tls.key is None):
        raise ValueError("mutual TLS needs both cert and key")
    return grpc.ssl_channel_credentials(root_certificates=tls.ca, private_key=tls.key, certificate_chain=tls.cert)


def options(tls: TlsConfig | None, max_message_bytes: int) -> list[tuple[str, str | int]]:
    opts: list[tuple[str, str | int]] = [
        ("grpc.max_receive_message_length", max_message_bytes),
        ("grpc.max_send_message_length", max_message_bytes),
    ]
    if tls is not None and tls.server_name:
        opts.append(("grpc.ssl_target_name_override", tls.server_name))
    return opts


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    """The bearer token as call metadata; empty without one (mTLS or no access policy)."""
    return (("authorization", f"Bearer {token}"),) if token else ()

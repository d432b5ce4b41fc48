"""Channel credentials, options and call metadata, shared by the sync and asyncio clients."""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import grpc

from cipherd.types import TlsConfig

DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
C = TypeVar("C")


def open_channel(target: str, tls: TlsConfig | None, max_message_bytes: int,
                 secure: Callable[..., C], insecure: Callable[..., C]) -> C:
    """A channel from grpc (sync) or grpc.aio's secure_channel/insecure_channel."""
    opts = options(tls, max_message_bytes)
    return secure(target, credentials(tls), opts) if tls is not None else insecure(target, opts)


def credentials(tls: TlsConfig) -> grpc.ChannelCredentials:
    if (tls.cert is None) != (tls.key is None):
        raise ValueError("mutual TLS needs both cert and key")
    return grpc.ssl_channel_credentials(root_certificates=tls.ca, private_key=tls.key,
                                        certificate_chain=tls.cert)


def options(tls: TlsConfig | None, max_message_bytes: int) -> list[tuple[str, str | int]]:
    opts: list[tuple[str, str | int]] = [("grpc.max_receive_message_length", max_message_bytes),
                                         ("grpc.max_send_message_length", max_message_bytes)]
    if tls is not None and tls.server_name:
        opts.append(("grpc.ssl_target_name_override", tls.server_name))
    return opts


def metadata(token: str | None) -> tuple[tuple[str, str], ...]:
    """The bearer token as call metadata; empty without one (mTLS or no access policy)."""
    return (("authorization", f"Bearer {token}"),) if token else ()

"""TLS, bearer tokens and mutual TLS against servers with an access policy."""

from __future__ import annotations

import pytest
from conftest import TOKEN, Pki

import cipherd
from cipherd import TlsConfig
from server import RunningServer


def test_tls_with_bearer_token(token_server: RunningServer, pki: Pki, key_name: str) -> None:
    name = "app-" + key_name
    with cipherd.Client(token_server.target, tls=TlsConfig(ca=pki.ca.cert_bytes()), token=TOKEN) as c:
        c.create_key(name)
        assert c.decrypt(c.encrypt(name, b"over tls")) == b"over tls"
        with pytest.raises(cipherd.PermissionDeniedError) as raised:
            c.encrypt("demo", b"not granted")
        assert "app" in raised.value.details


@pytest.mark.parametrize("token", [None, "wrong-token"])
def test_missing_or_unknown_token_is_unauthenticated(token_server: RunningServer, pki: Pki, token: str | None) -> None:
    with cipherd.Client(token_server.target, tls=TlsConfig(ca=pki.ca.cert_bytes()), token=token) as c:
        with pytest.raises(cipherd.UnauthenticatedError):
            c.encrypt("app-x", b"x")


async def test_async_client_over_tls_with_token(token_server: RunningServer, pki: Pki) -> None:
    async with cipherd.AsyncClient(token_server.target, tls=TlsConfig(ca=pki.ca.cert_bytes()), token=TOKEN) as c:
        with pytest.raises(cipherd.NotFoundError):
            await c.get_key("app-missing")


def test_untrusted_server_certificate_is_unavailable(token_server: RunningServer, pki: Pki) -> None:
    with cipherd.Client(token_server.target, tls=TlsConfig(ca=pki.other_ca.cert_bytes()), token=TOKEN, timeout=5) as c:
        with pytest.raises(cipherd.UnavailableError):
            c.encrypt("app-x", b"x")


def test_mutual_tls_identity_is_the_certificate(mtls_server: RunningServer, pki: Pki, key_name: str) -> None:
    tls = TlsConfig(ca=pki.ca.cert_bytes(), cert=pki.billing.cert_bytes(), key=pki.billing.key_bytes())
    name = "billing-" + key_name
    with cipherd.Client(mtls_server.target, tls=tls) as c:
        c.create_key(name)
        assert c.decrypt(c.encrypt(name, b"mtls")) == b"mtls"
        with pytest.raises(cipherd.PermissionDeniedError):
            c.encrypt("app-other", b"x")


def test_certificate_no_rule_names_is_permission_denied(mtls_server: RunningServer, pki: Pki) -> None:
    tls = TlsConfig(ca=pki.ca.cert_bytes(), cert=pki.stranger.cert_bytes(), key=pki.stranger.key_bytes())
    with cipherd.Client(mtls_server.target, tls=tls) as c, pytest.raises(cipherd.PermissionDeniedError):
        c.encrypt("billing-x", b"x")


def test_no_client_certificate_is_refused(mtls_server: RunningServer, pki: Pki) -> None:
    with cipherd.Client(mtls_server.target, tls=TlsConfig(ca=pki.ca.cert_bytes()), timeout=5) as c:
        with pytest.raises(cipherd.UnavailableError):
            c.encrypt("billing-x", b"x")


def test_half_a_client_certificate_is_a_usage_error(pki: Pki) -> None:
    with pytest.raises(ValueError):
        cipherd.Client("127.0.0.1:1", tls=TlsConfig(cert=pki.billing.cert_bytes()))

"""Which transport a client picks: plaintext only for loopback targets or when asked for, else TLS."""

from __future__ import annotations

import pytest

from cipherd import TlsConfig
from cipherd._channel import is_loopback, open_channel


@pytest.mark.parametrize(
    ("target", "loopback"),
    [
        ("127.0.0.1:50051", True),
        ("127.9.8.7:50051", True),
        ("[::1]:50051", True),
        ("localhost:50051", True),
        ("cipherd.prod.svc:443", False),
        ("10.0.0.7:50051", False),
        ("127.0.0.1", False),
        ("dns:///cipherd:50051", False),
    ],
)
def test_isLoopback_onlyForThisMachine(target: str, loopback: bool) -> None:
    assert is_loopback(target) is loopback


def _open(target: str, tls: TlsConfig | None = None, insecure: bool = False) -> str:
    return open_channel(
        target, tls, insecure, 1024, secure=lambda t, creds, opts: "tls", insecure=lambda t, opts: "plaintext"
    )


def test_noTls_isPlaintextOnLoopback_andTlsWithSystemRootsElsewhere() -> None:
    assert _open("127.0.0.1:50051") == "plaintext"
    assert _open("cipherd.prod.svc:443") == "tls"


def test_insecure_allowsPlaintextToARemoteTarget_butNotWithTls() -> None:
    assert _open("10.0.0.7:50051", insecure=True) == "plaintext"
    with pytest.raises(ValueError, match="conflicts"):
        _open("10.0.0.7:50051", tls=TlsConfig(), insecure=True)


def test_tls_onLoopback_isHonoured() -> None:
    assert _open("127.0.0.1:50051", tls=TlsConfig()) == "tls"

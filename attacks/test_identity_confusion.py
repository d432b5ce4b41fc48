"""Finding 8: identity confusion under mutual TLS.

The policy grants `root` everything (a certificate caller) and `ops` encrypt (a bearer-token caller).
The attacker can get a certificate from the trusted CA with names of its choosing but holds no token:
(a) CN=root and only an IP subject alternative name, hoping the CN fallback makes it `root`;
(b) DNS SAN `ops`, hoping a certificate name reaches the token caller's grants.
Budget: 0 grants for either, on Encrypt and GetKey (UNAUTHENTICATED or PERMISSION_DENIED). Positive
controls: a certificate with DNS SAN `root` gets root's grants; the `ops` token gets ops's grants
(sent with a certificate no policy entry names, as mutual TLS requires one: first one with an unknown
DNS name, else one with no name at all)."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from answers import Answer, Metadata, unary
from certs import Pem
from cryptography import x509
from policy import Caller, Rule, write_policy
from servers import IP_LOOPBACK, Pki, Target, connect, serve

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb

KEY = "demo"
ROOT = Caller("root", [Rule(["*"], ["encrypt", "decrypt", "admin", "inspect"])], with_token=False)
OPS = Caller("ops", [Rule(["*"], ["encrypt", "inspect"])])
# UNAVAILABLE: a server may also refuse such a certificate in the TLS handshake.
REFUSED = {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAVAILABLE}


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("mtls")
    policy = write_policy(d / "policy.yaml", [ROOT, OPS])
    probe = pki.issue_with("health-probe", "health-probe.invalid", [x509.DNSName("health-probe.invalid")])
    with serve(
        d,
        [
            "--tls-cert",
            str(server_pem.cert),
            "--tls-key",
            str(server_pem.key),
            "--tls-client-ca",
            str(pki.pem.cert),
            "--access-policy",
            str(policy),
            "--demo-key",
            KEY,
        ],
        ca=pki.pem,
        probe=probe,
    ) as t:
        yield t


def _calls(target: Target, client: Pem, metadata: Metadata = ()) -> dict[str, Answer]:
    with connect(target, client) as stubs:
        return {
            "Encrypt": unary(stubs.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), metadata),
            "GetKey": unary(stubs.admin.GetKey, admin_pb.GetKeyRequest(key_name=KEY), metadata),
        }


def _token_control(target: Target, pki: Pki) -> dict[str, Answer]:
    """The `ops` token, sent with a certificate that names no policy entry: one with an unknown DNS
    name, else (a server may let a certificate's identity win over a token) one with no name at all."""
    answers = _calls(target, pki.issue_with("nobody", "nobody.invalid", [x509.DNSName("nobody.invalid")]), OPS.metadata)
    if all(answer.ok for answer in answers.values()):
        return answers
    return _calls(target, pki.issue_with("nameless", "", [IP_LOOPBACK]), OPS.metadata)


def test_certificate_names_never_borrow_another_callers_grants(target: Target, pki: Pki) -> None:
    attacks = {
        "CN=root, IP SAN only": pki.issue_with("cn-root-ip", "root", [IP_LOOPBACK]),
        "DNS SAN ops (the token caller's name)": pki.issue_with("san-ops", "ops", [x509.DNSName("ops")]),
    }
    granted = [
        f"{what}: {call} {answer.brief()}"
        for what, client in attacks.items()
        for call, answer in _calls(target, client).items()
        if answer.code not in REFUSED
    ]

    controls = {
        "DNS SAN root": _calls(target, pki.issue_with("san-root", "root", [x509.DNSName("root")])),
        "the ops token": _token_control(target, pki),
    }
    refused = [
        f"{what}: {call} {answer.brief()}"
        for what, answers in controls.items()
        for call, answer in answers.items()
        if not answer.ok
    ]
    assert not granted, "an attacker's certificate got grants:\n" + "\n".join(granted)
    assert not refused, "positive control refused:\n" + "\n".join(refused)

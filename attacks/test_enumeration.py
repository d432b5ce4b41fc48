"""Finding 6 and the access model: learning which keys exist without being allowed to.

A caller allowed to inspect only `a-*` pages through ListKeys with small pages over a store that also
holds `b-*` keys; a page token that is the last name read, visible or not, spells out the hidden keys
one page at a time. And a refused caller compares its answers for a key that exists and one that does
not. Budget: 0 hidden names in any listed key or page token (raw, or decoded as base64 or hex), over
at most 200 pages per listing; 0 differences between existing and missing keys in status and
message and ErrorInfo metadata (the key's own name replaced), and in the ErrorInfo reason, for Encrypt, Decrypt, GetKey and ReEncrypt."""

from __future__ import annotations

import base64
import binascii
import contextlib
import uuid

import pytest
from answers import Answer, unary
from conftest import Callers
from keyring import Envelope, create_key, encrypt
from servers import Target, connect

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb

MAX_PAGES = 200
KEYS_EACH = 5


def _decodings(token: str) -> list[bytes]:
    """The token as sent, and as whatever base64 or hex it might be."""
    forms = [token.encode()]
    padded = token + "=" * (-len(token) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode, binascii.unhexlify):
        with contextlib.suppress(binascii.Error, ValueError):
            forms.append(decode(padded if decode is not binascii.unhexlify else token))
    return forms


@pytest.mark.parametrize("page_size", [1, 2, 3])
def test_list_keys_pages_never_reveal_keys_the_caller_may_not_see(
    policy_server: Target, callers: Callers, page_size: int
) -> None:
    tag = uuid.uuid4().hex[:10]
    visible = [f"a-{tag}-{i}" for i in range(KEYS_EACH)]
    hidden = [f"b-{tag}-{i}" for i in range(KEYS_EACH)]
    leaks: list[str] = []
    seen: list[str] = []
    with connect(policy_server) as stubs:
        for name in visible + hidden:
            create_key(stubs, callers.admin.metadata, name)
        token = ""
        for _ in range(MAX_PAGES):
            answer = unary(
                stubs.admin.ListKeys,
                admin_pb.ListKeysRequest(page_size=page_size, page_token=token),
                callers.lister.metadata,
            )
            assert answer.ok, f"ListKeys: {answer.brief()}"
            names = [k.key_name for k in answer.response.keys]
            seen += names
            leaks += [f"key {n!r} listed" for n in names if not n.startswith("a-")]
            token = answer.response.next_page_token
            if any(f"b-{tag}".encode() in form for form in _decodings(token)):
                leaks.append(f"page token {token!r} names a hidden b-{tag}-* key")
            if not token:
                break
        else:
            pytest.fail(f"ListKeys gave a next page {MAX_PAGES} times")
    assert not leaks, f"page_size {page_size}: " + "; ".join(sorted(set(leaks))[:8])
    assert set(visible) <= set(seen), "the caller must still see its own keys"


def _same(existing: Answer, missing: Answer, existing_name: str, missing_name: str) -> str | None:
    a = (
        existing.code,
        existing.reason,
        existing.message.replace(existing_name, "<KEY>"),
        tuple((k, v.replace(existing_name, "<KEY>")) for k, v in existing.error_metadata),
    )
    b = (
        missing.code,
        missing.reason,
        missing.message.replace(missing_name, "<KEY>"),
        tuple((k, v.replace(missing_name, "<KEY>")) for k, v in missing.error_metadata),
    )
    if a != b:
        return f"existing {existing.brief()} vs missing {missing.brief()}"
    if existing.ok:
        return f"a refused caller got OK: {existing.brief()}"
    if existing.reason != "ACCESS_DENIED":
        return f"a refusal whose reason is {existing.reason!r}, not ACCESS_DENIED: {existing.brief()}"
    if dict(existing.error_metadata).get("key") != existing_name:
        return f"a refusal whose ErrorInfo does not name the key it was asked for: {existing.error_metadata}"
    return None


def test_refused_caller_cannot_tell_existing_keys_from_missing_ones(policy_server: Target, callers: Callers) -> None:
    tag = uuid.uuid4().hex[:10]
    existing, missing = f"e-{tag}", f"m-{tag}"
    refused = callers.refused.metadata
    with connect(policy_server) as stubs:
        create_key(stubs, callers.admin.metadata, existing)
        real = encrypt(stubs, callers.admin.metadata, existing, b"secret")
        forged = Envelope.parse(real).with_key(missing)
        probes = {
            "Encrypt": (
                stubs.crypto.Encrypt,
                pb.EncryptRequest(key_name=existing, plaintext=b"x"),
                pb.EncryptRequest(key_name=missing, plaintext=b"x"),
            ),
            "Decrypt": (stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=real), pb.DecryptRequest(ciphertext=forged)),
            "GetKey": (
                stubs.admin.GetKey,
                admin_pb.GetKeyRequest(key_name=existing),
                admin_pb.GetKeyRequest(key_name=missing),
            ),
            "ReEncrypt": (
                stubs.crypto.ReEncrypt,
                pb.ReEncryptRequest(ciphertext=real),
                pb.ReEncryptRequest(ciphertext=forged),
            ),
            "ReEncrypt into": (
                stubs.crypto.ReEncrypt,
                pb.ReEncryptRequest(ciphertext=real, key_name=existing),
                pb.ReEncryptRequest(ciphertext=forged, key_name=missing),
            ),
        }
        differences = []
        for what, (method, for_existing, for_missing) in probes.items():
            difference = _same(
                unary(method, for_existing, refused), unary(method, for_missing, refused), existing, missing
            )
            if difference:
                differences.append(f"{what}: {difference}")
    assert not differences, "\n".join(differences)

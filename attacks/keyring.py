"""Keys and ciphertexts the attacks start from, made by a caller allowed to make them."""

from __future__ import annotations

import base64
from dataclasses import dataclass

from answers import Metadata
from servers import Stubs

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import key_admin_service_pb2 as admin_pb
from cipherd.v1 import keys_pb2

TIMEOUT_S = 30.0


def create_key(
    stubs: Stubs,
    metadata: Metadata,
    name: str,
    mode: keys_pb2.Mode.ValueType = keys_pb2.MODE_GCM,
    *,
    allow_unauthenticated: bool = False,
    allow_ecb: bool = False,
) -> None:
    policy = keys_pb2.KeyPolicy(allow_ecb_encryption=allow_ecb)
    stubs.admin.CreateKey(
        admin_pb.CreateKeyRequest(key_name=name, mode=mode, allow_unauthenticated=allow_unauthenticated, policy=policy),
        metadata=tuple(metadata),
        timeout=TIMEOUT_S,
    )


def encrypt(stubs: Stubs, metadata: Metadata, name: str, plaintext: bytes, context: bytes = b"") -> str:
    response = stubs.crypto.Encrypt(
        pb.EncryptRequest(key_name=name, plaintext=plaintext, context=context),
        metadata=tuple(metadata),
        timeout=TIMEOUT_S,
    )
    return str(response.ciphertext)


@dataclass(frozen=True)
class Envelope:
    """A cipherd ciphertext split into its header and decoded payload, to tamper with and put back."""

    header: str
    payload: bytes

    @classmethod
    def parse(cls, ciphertext: str) -> Envelope:
        end = ciphertext.index(">") + 1
        return cls(ciphertext[:end], base64.b64decode(ciphertext[end:], validate=True))

    def with_payload(self, payload: bytes) -> str:
        return self.header + base64.b64encode(payload).decode()

    def with_key(self, name: str) -> str:
        """The same ciphertext with its header naming another key."""
        rest = self.header[self.header.index("/") :]
        return "<" + name + rest + base64.b64encode(self.payload).decode()

    def flipped(self, position: int, delta: int) -> str:
        """The payload with `delta` XORed into the byte at `position` (negative: from the end)."""
        payload = bytearray(self.payload)
        payload[position] ^= delta
        return self.with_payload(bytes(payload))

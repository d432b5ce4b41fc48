"""The data a campaign's placeholders stand for: ${payload:N} (seeded bytes, the same on every machine)
and ${ciphertext:KEY:N} (a ciphertext of that payload, made before the runs)."""

import base64
import random
import re

PLACEHOLDER = re.compile(r"\$\{(payload|ciphertext):([^}]*)\}")


def payload_b64(size: int) -> str:
    """The same N bytes in every run and on every machine (seeded), base64 as ghz's JSON wants."""
    return base64.b64encode(random.Random(size).randbytes(size)).decode()


def resolve(value, ciphertexts: dict):
    """Replaces ${payload:N} and ${ciphertext:KEY:N} with real data."""
    if isinstance(value, str):

        def one(m):
            kind, arg = m.group(1), m.group(2)
            if kind == "payload":
                return payload_b64(int(arg))
            key, n = arg.rsplit(":", 1)
            return ciphertexts[(key, int(n))]

        return PLACEHOLDER.sub(one, value)
    if isinstance(value, list):
        return [resolve(v, ciphertexts) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v, ciphertexts) for k, v in value.items()}
    return value

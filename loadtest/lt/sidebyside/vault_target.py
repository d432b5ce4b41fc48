"""Vault Transit in the side-by-side: the JSON counterpart of each shape that has one, checked once with
urllib (no per-item error), then driven with `h2load --h1`."""

import base64
import contextlib
import json

from ..servers import vault
from . import bodies, h2load
from .shapes import SHAPES, Shape
from .target import ServerFigures, Target


def batch_problems(reply: dict, n: int, value: str = "ciphertext") -> list[str]:
    """What is wrong with a Transit batch reply: a count other than n, or items carrying an error or no
    `value` (ciphertext for encrypt and rewrap, plaintext for decrypt)."""
    results = (reply.get("data") or {}).get("batch_results") or []
    problems = [f"{len(results)} batch results, wanted {n}"] if len(results) != n else []
    bad = [r.get("error") for r in results if r.get("error") or not r.get(value)]
    if bad:
        problems.append(f"{len(bad)} items failed, first: {bad[0] or 'no ' + value}")
    return problems


def payloads(plaintext: bytes, to_decrypt: str, v1: str) -> dict[str, bytes]:
    """The JSON body of each shape Vault has a counterpart for."""
    return {
        "encrypt": bodies.vault_encrypt(plaintext),
        "encrypt-batch-256": bodies.vault_encrypt_batch(plaintext, 256),
        "decrypt-batch-256": bodies.vault_ciphertext_batch(to_decrypt, 256),
        "reencrypt-batch-256": bodies.vault_ciphertext_batch(v1, 256),
    }


def reply_problems(shape: Shape, reply: dict, plaintext: bytes) -> list[str]:
    if shape.vault_op == "decrypt":
        want = base64.b64encode(plaintext).decode()
        wrong = [r for r in (reply.get("data") or {}).get("batch_results") or [] if r.get("plaintext") != want]
        return batch_problems(reply, shape.items, "plaintext") + (
            [f"{len(wrong)} items decrypted to another plaintext"] if wrong else []
        )
    if shape.items > 1:
        return batch_problems(reply, shape.items)
    ok = str((reply.get("data") or {}).get("ciphertext", "")).startswith("vault:v2:")
    return [] if ok else ["no vault:v2 ciphertext in the reply"]


def start(ctx, plaintext: bytes, stack: contextlib.ExitStack) -> Target:
    server = vault.Vault(vault.install(), ctx.dir)
    stack.callback(server.stop)
    server.start()
    encrypt_path = f"/v1/transit/encrypt/{vault.KEY}"
    v1 = server.api("POST", encrypt_path, bodies.vault_encrypt(plaintext))["data"]["ciphertext"]
    server.rotate()
    to_decrypt = server.api("POST", encrypt_path, bodies.vault_encrypt(plaintext))["data"]["ciphertext"]
    shapes = [s for s in SHAPES if s.has_vault]
    files = {k: ctx.body_file(f"{k}.vault.json", v) for k, v in payloads(plaintext, to_decrypt, v1).items()}
    checks = {}
    for shape in shapes:
        reply = server.api("POST", f"/v1/transit/{shape.vault_op}/{vault.KEY}", files[shape.name].read_bytes())
        problems = reply_problems(shape, reply, plaintext)
        if problems:
            raise SystemExit(f"loadtest: Vault {shape.name}: {'; '.join(problems)}")
        checks[shape.name] = {"reply_bytes": len(json.dumps(reply))}
    ctx.checks["vault-transit"] = checks
    specs = {
        s.name: h2load.Spec(
            server.url(s.vault_op),
            files[s.name],
            s.clients,
            ctx.args.sbs_duration,
            ctx.args.sbs_h2load_warmup,
            server.headers(),
            h1=True,
        )
        for s in shapes
    }
    return Target("vault-transit", specs, server.cpu_seconds, lambda: None, lambda _b, _s: ServerFigures())

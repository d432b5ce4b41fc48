"""A key version whose stored material does not unwrap (KEY_MATERIAL_UNUSABLE) as an oracle and an amplifier.

Two replicas share one real Vault (KV v2 and Transit) in the middle of a KEK move done in one roll
(docs/security.md): the rolled replica wraps with the new Transit KEK and still reads the old one
(`--kek-also-unwrap`); the other still has only the old KEK, so it cannot unwrap a key the rolled one made. A
caller with `decrypt` sends that key's ciphertexts to the replica not rolled, good and tampered, 200 times.

Budgets: one answer, identical for a good and a tampered ciphertext (FAILED_PRECONDITION
KEY_MATERIAL_UNUSABLE naming only the key and version: no KEK, no Vault path, no blob, no ciphertext), so the
unusable version is no decryption oracle; a caller without `decrypt` gets the same PERMISSION_DENIED as for a
healthy key and a missing one, so it cannot learn which keys are broken; the 200 calls leave at most 2 ERROR
lines for the operator (one a minute per version), none holding the ciphertext. Positive controls: the
second replica decrypts its own key's data, and a tampered ciphertext under its own key is DECRYPTION_FAILED.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import grpc
import pytest
from answers import Answer, unary
from certs import Pem
from conftest import fresh
from keyring import create_key, encrypt
from policy import Caller, Rule, write_policy
from servers import Pki, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb

CALLS = 200
MAX_ERROR_LINES = 2
BOUND_S = 60.0


class Vault:
    """A Vault dev server with Transit, from the binary .ci/install-vault built (CIPHERD_VAULT_BIN)."""

    def __init__(self, workdir: Path) -> None:
        binary = os.environ.get("CIPHERD_VAULT_BIN")
        if not binary:
            pytest.fail("CIPHERD_VAULT_BIN is not set: run `make test-attacks`, which builds Vault (.ci/install-vault)")
        self.token = secrets.token_hex(16)
        self.token_file = workdir / "vault-token"
        self.token_file.write_text(self.token)
        self.token_file.chmod(0o600)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.address = f"http://127.0.0.1:{port}"
        self._log = (workdir / "vault.log").open("wb")
        self.process = subprocess.Popen(
            [binary, "server", "-dev", f"-dev-root-token-id={self.token}", f"-dev-listen-address=127.0.0.1:{port}"],
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "HOME": str(workdir)},
        )
        deadline = time.monotonic() + BOUND_S
        while not self._healthy():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("Vault did not start:\n" + (workdir / "vault.log").read_text())
            time.sleep(0.2)

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.address}/v1/sys/health", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def write(self, path: str, body: dict[str, object]) -> None:
        request = urllib.request.Request(
            f"{self.address}/v1/{path}",
            data=json.dumps(body).encode(),
            headers={"X-Vault-Token": self.token},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=10):
            pass

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Vault]:
    running = Vault(tmp_path_factory.mktemp("vault"))
    try:
        running.write("sys/mounts/transit", {"type": "transit"})
        for kek in ("kek-a", "kek-b"):
            running.write(f"transit/keys/{kek}", {"type": "aes256-gcm96"})
        yield running
    finally:
        running.stop()


ADMIN = Caller("admin", [Rule(["*"], ["encrypt", "decrypt", "admin"])])
READER = Caller("reader", [Rule(["*"], ["decrypt"])])
OUTSIDER = Caller("outsider", [Rule(["nothing-*"], ["decrypt"])])


def _replica(
    directory: Path, vault: Vault, server_pem: Pem, ca: Pem, kek: str, *also_unwrap: str
) -> AbstractContextManager[Target]:
    directory.mkdir()
    policy = write_policy(directory / "policy.yaml", [ADMIN, READER, OUTSIDER])
    return serve(
        directory,
        [
            *tls_and_policy(server_pem, policy),
            "--keystore",
            "vault",
            "--vault-address",
            vault.address,
            "--vault-token-file",
            str(vault.token_file),
            "--kek",
            "transit",
            "--kek-transit-key",
            kek,
            *(f"--kek-also-unwrap=transit:transit/{old}" for old in also_unwrap),
        ],
        ca=ca,
    )


def _tampered(ciphertext: str) -> str:
    header, body = ciphertext.split(">", 1)
    raw = bytearray(base64.b64decode(body))
    raw[len(raw) // 2] ^= 0x01
    return header + ">" + base64.b64encode(bytes(raw)).decode()


def _shape(answer: Answer, key: str) -> tuple[object, ...]:
    """The answer with the key it names (which the caller sent) written as <key>."""
    metadata = tuple((k, "<key>" if v == key else v) for k, v in answer.error_metadata)
    return answer.code, answer.message.replace(key, "<key>"), answer.reason, metadata


def test_an_unusable_key_version_answers_one_thing_and_logs_little(
    tmp_path: Path, vault: Vault, pki: Pki, server_pem: Pem
) -> None:
    broken, healthy = fresh("unwrap-new"), fresh("unwrap-old")
    with _replica(tmp_path / "old", vault, server_pem, pki.pem, "kek-b") as on_b, connect(on_b) as stubs:
        create_key(stubs, ADMIN.metadata, healthy)
        own = encrypt(stubs, ADMIN.metadata, healthy, b"order 1")
        with _replica(tmp_path / "new", vault, server_pem, pki.pem, "kek-a", "kek-b") as on_a, connect(on_a) as rolled:
            create_key(rolled, ADMIN.metadata, broken)
            stranger = encrypt(rolled, ADMIN.metadata, broken, b"card 4111-1111")

        def decrypt(ciphertext: str, caller: Caller) -> Answer:
            return unary(stubs.crypto.Decrypt, pb.DecryptRequest(ciphertext=ciphertext), caller.metadata)

        good = [decrypt(stranger, READER) for _ in range(CALLS // 2)]
        tampered = [decrypt(_tampered(stranger), READER) for _ in range(CALLS // 2)]
        outsider_broken = decrypt(stranger, OUTSIDER)
        outsider_healthy = decrypt(own, OUTSIDER)
        missing = fresh("missing")
        outsider_missing = decrypt(own.replace(healthy, missing, 1), OUTSIDER)
        own_good = decrypt(own, READER)
        own_tampered = decrypt(_tampered(own), READER)
        log = list(on_b.server.log)

    first = good[0]
    assert first.code == grpc.StatusCode.FAILED_PRECONDITION, first.brief()
    assert first.reason == "KEY_MATERIAL_UNUSABLE", first.brief()
    assert first.error_metadata == (("key", broken), ("version", "1")), first.error_metadata
    assert first.message == (
        f"key '{broken}' version 1: its stored key material could not be unwrapped; an operator must see the server log"
    )
    for leak in ("kek", "transit", "vault:", "secret/", stranger.split(">", 1)[1][:16]):
        assert leak not in first.message.lower(), f"{leak!r} in {first.message!r}"
    distinct = {(a.code, a.message, a.reason, a.error_metadata) for a in good + tampered}
    assert len(distinct) == 1, f"good and tampered ciphertexts of the unusable version answered {distinct}"

    assert outsider_broken.code == grpc.StatusCode.PERMISSION_DENIED, outsider_broken.brief()
    answers = {_shape(outsider_broken, broken), _shape(outsider_healthy, healthy), _shape(outsider_missing, missing)}
    assert len(answers) == 1, f"a caller without decrypt told broken, healthy and missing keys apart: {answers}"

    assert own_good.ok and own_good.response.plaintext == b"order 1", own_good.brief()
    assert own_tampered.code == grpc.StatusCode.INVALID_ARGUMENT, own_tampered.brief()
    assert own_tampered.reason == "DECRYPTION_FAILED", own_tampered.brief()

    errors = [line for line in log if " ERROR " in line and broken in line]
    assert 1 <= len(errors) <= MAX_ERROR_LINES, f"{len(errors)} ERROR lines for {CALLS} calls:\n" + "".join(errors)
    body = stranger.split(">", 1)[1]
    for line in log:
        assert body[:24] not in line, f"a ciphertext in the log: {line[:200]}"
        assert "card 4111" not in line, "a plaintext in the log"

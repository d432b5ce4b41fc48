"""Encrypts in each client language and decrypts in every other, through one real server; and checks
that every client's own header parser reads every ciphertext the same way. Run by `make test-crosslang`
with the Python client's venv (its tests/server.py starts the jar); Go is `cipherctl`, TypeScript is
ts-cli.mjs over the built package, Java is JavaCli.java on the built client's classpath
(CIPHERD_JAVA_CLIENT_CLASSPATH, made by the Makefile)."""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

import cipherd
from server import RunningServer, start_server

HERE = Path(__file__).resolve().parent
LANGUAGES = ("go", "python", "typescript", "java")
# Not ASCII, not UTF-8 text, and with a NUL: the bytes must survive every language's plumbing.
PLAINTEXT_TAIL = "é\u00a0\U0001f512".encode() + bytes([0, 255, 10])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    running = start_server(tmp_path_factory.mktemp("crosslang"), [], grpc.insecure_channel)
    with cipherd.Client(running.target) as client:
        client.create_key("crosslang")
    yield running
    running.stop()


@pytest.fixture(scope="module")
def cipherctl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = tmp_path_factory.mktemp("bin") / "cipherctl"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/cipherctl"], cwd=HERE.parent / "go", check=True)
    return binary


def java_cli(*args: str) -> list[str]:
    """The Java client's command: JavaCli.java run by the source launcher on the client's classpath."""
    classpath = os.environ.get("CIPHERD_JAVA_CLIENT_CLASSPATH")
    if not classpath:
        pytest.fail(
            "CIPHERD_JAVA_CLIENT_CLASSPATH is not set: run make test-crosslang (clients/java/scripts/classpath prints it)"
        )
    # The client's own JVM: CIPHERD_JAVA may start the server some other way (deploy/test-image's container).
    java = os.environ.get("CIPHERD_CLIENT_JAVA", "java")
    return [
        java,
        *os.environ.get("CIPHERD_CLIENT_JAVA_OPTS", "").split(),
        "-cp",
        classpath,
        str(HERE / "JavaCli.java"),
        *args,
    ]


def encrypt(language: str, server: RunningServer, cipherctl: Path, plaintext: bytes, context: str) -> str:
    if language == "python":
        with cipherd.Client(server.target) as client:
            return client.encrypt("crosslang", plaintext, context=context.encode())
    if language == "java":
        return run(java_cli("encrypt", server.target, "crosslang", context), plaintext).decode("ascii").strip()
    command = (
        [str(cipherctl), "--addr", server.target, "--insecure", "encrypt", "crosslang", "--context", context]
        if language == "go"
        else ["node", str(HERE / "ts-cli.mjs"), "encrypt", server.target, "crosslang", context]
    )
    return run(command, plaintext).decode("ascii").strip()


def decrypt(language: str, server: RunningServer, cipherctl: Path, ciphertext: str, context: str) -> bytes:
    if language == "python":
        with cipherd.Client(server.target) as client:
            return client.decrypt(ciphertext, context=context.encode())
    if language == "java":
        return run(java_cli("decrypt", server.target, context), ciphertext.encode("ascii"))
    command = (
        [str(cipherctl), "--addr", server.target, "--insecure", "decrypt", "--context", context]
        if language == "go"
        else ["node", str(HERE / "ts-cli.mjs"), "decrypt", server.target, context]
    )
    return run(command, ciphertext.encode("ascii"))


def inspect_locally(language: str, cipherctl: Path, ciphertext: str) -> str:
    if language == "python":
        e = cipherd.parse_ciphertext(ciphertext)
        return f"{e.key_name} {e.key_version} {e.mode.value}"
    if language == "go":
        out = run([str(cipherctl), "inspect", "--local", ciphertext], b"").decode()
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        return " ".join(fields[k].strip() for k in ("key", "version", "mode"))
    if language == "java":
        return run(java_cli("inspect"), ciphertext.encode("ascii")).decode().strip()
    return run(["node", str(HERE / "ts-cli.mjs"), "inspect"], ciphertext.encode("ascii")).decode().strip()


def run(command: list[str], stdin: bytes) -> bytes:
    done = subprocess.run(
        command, input=stdin, capture_output=True, timeout=60, env={**os.environ, "CIPHERD_INSECURE": "true"}
    )
    assert done.returncode == 0, f"{command[0]} {command[1:3]} failed: {done.stderr.decode(errors='replace')[-500:]}"
    return done.stdout


@pytest.fixture(scope="module")
def ciphertexts(server: RunningServer, cipherctl: Path) -> dict[str, tuple[str, bytes, str]]:
    """One ciphertext per language: (ciphertext, plaintext, context)."""
    made = {}
    for language in LANGUAGES:
        plaintext = f"from {language} {secrets.token_hex(8)} ".encode() + PLAINTEXT_TAIL
        context = f"row-{language}"
        made[language] = (encrypt(language, server, cipherctl, plaintext, context), plaintext, context)
    return made


@pytest.mark.parametrize("source", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_aCiphertextFromOneLanguage_decryptsInEvery(
    source: str, reader: str, server: RunningServer, cipherctl: Path, ciphertexts: dict[str, tuple[str, bytes, str]]
) -> None:
    ciphertext, plaintext, context = ciphertexts[source]

    assert decrypt(reader, server, cipherctl, ciphertext, context) == plaintext


@pytest.mark.parametrize("source", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_everyClientsOwnParser_readsTheSameHeader(
    source: str, reader: str, cipherctl: Path, ciphertexts: dict[str, tuple[str, bytes, str]]
) -> None:
    ciphertext = ciphertexts[source][0]

    assert inspect_locally(reader, cipherctl, ciphertext) == "crosslang 1 gcm"


@pytest.mark.parametrize("reader", ("python",))
def test_aWrongContext_failsAsDecryptionFailed(
    reader: str, server: RunningServer, cipherctl: Path, ciphertexts: dict[str, tuple[str, bytes, str]]
) -> None:
    ciphertext, _, _ = ciphertexts["typescript"]

    with pytest.raises(cipherd.DecryptionFailedError):
        decrypt(reader, server, cipherctl, ciphertext, "row-other")

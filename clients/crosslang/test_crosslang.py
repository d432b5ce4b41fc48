"""Encrypts in each client language and decrypts in every other, through one real server; and checks
that every client's own header parser reads every ciphertext the same way. The same for subject-bound
ciphertexts (`<crosslang/s:gcm>`), and a subject erased through each language is seen by every other as
its typed SubjectErased error. Run by `make test-crosslang`
with the Python client's venv (its tests/server.py starts the jar); Go is `cipherctl`, TypeScript is
ts-cli.mjs over the built package, Java is JavaCli.java on the built client's classpath
(CIPHERD_JAVA_CLIENT_CLASSPATH, made by the Makefile)."""

from __future__ import annotations

import base64
import json
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


def encrypt(
    language: str, server: RunningServer, cipherctl: Path, plaintext: bytes, context: str, subject: str | None = None
) -> str:
    """Encrypts under the crosslang key, sealed under `subject`'s key when one is given."""
    if language == "python":
        with cipherd.Client(server.target) as client:
            return client.encrypt("crosslang", plaintext, context=context.encode(), subject=subject)
    subject_args = [] if subject is None else [subject]
    if language == "java":
        command = java_cli("encrypt", server.target, "crosslang", context, *subject_args)
        return run(command, plaintext).decode("ascii").strip()
    if language == "typescript":
        command = ["node", str(HERE / "ts-cli.mjs"), "encrypt", server.target, "crosslang", context, *subject_args]
        return run(command, plaintext).decode("ascii").strip()
    command = [str(cipherctl), "--addr", server.target, "--insecure", "encrypt", "crosslang", "--context", context]
    if subject is not None:  # cipherctl reads the id from a file, keeping it out of the process list
        subject_file = cipherctl.parent / f"subject-{secrets.token_hex(4)}"
        subject_file.write_text(subject + "\n")
        command += ["--subject-file", str(subject_file)]
    return run(command, plaintext).decode("ascii").strip()


def erase(language: str, server: RunningServer, cipherctl: Path, subject: str) -> str:
    """Erases `subject` under the crosslang key; returns the outcome as the language names it, lowercased."""
    if language == "python":
        with cipherd.Client(server.target) as client:
            return client.erase_subject("crosslang", subject).outcome.value
    if language == "java":
        return run(java_cli("erase", server.target, "crosslang", subject), b"").decode().strip().lower()
    if language == "typescript":
        return (
            run(["node", str(HERE / "ts-cli.mjs"), "erase", server.target, "crosslang", subject], b"").decode().strip()
        )
    ids = cipherctl.parent / f"ids-{secrets.token_hex(4)}"
    ids.write_text(subject + "\n")
    command = [str(cipherctl), "--addr", server.target, "--insecure", "subjects", "erase", "crosslang"]
    receipts = run([*command, "--from-file", str(ids)], b"").decode()
    return str(json.loads(receipts.splitlines()[0])["outcome"])


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


def decrypt_erased(language: str, server: RunningServer, cipherctl: Path, ciphertext: str, context: str) -> str:
    """Decrypts a ciphertext whose subject was erased; returns what the language's typed SubjectErased error said."""
    if language == "python":
        with cipherd.Client(server.target) as client, pytest.raises(cipherd.SubjectErasedError) as raised:
            client.decrypt(ciphertext, context=context.encode())
        assert raised.value.erase_time is not None
        return "subject erased"
    if language == "java":
        command = java_cli("decrypt", server.target, context)
    elif language == "typescript":
        command = ["node", str(HERE / "ts-cli.mjs"), "decrypt", server.target, context]
    else:  # cipherctl says so only when its client's error is ErrSubjectErased with an erase time (ErasedAt)
        command = [str(cipherctl), "--addr", server.target, "--insecure", "decrypt", "--context", context]
    done = subprocess.run(
        command,
        input=ciphertext.encode("ascii"),
        capture_output=True,
        timeout=60,
        env={**os.environ, "CIPHERD_INSECURE": "true"},
    )
    stderr = done.stderr.decode(errors="replace")
    assert done.returncode == (1 if language == "go" else 3) and done.stdout == b"", stderr[-500:]
    return (
        "subject erased"
        if ("subject erased at 20" in stderr or "subject was erased at 20" in stderr)
        else stderr[-500:]
    )


def inspect_locally(language: str, cipherctl: Path, ciphertext: str) -> str:
    """The header as the language's own parser reads it: "name version mode subject_bound payload_bytes"."""
    if language == "python":
        e = cipherd.parse_ciphertext(ciphertext)
        return f"{e.key_name} {e.key_version} {e.mode.value} {str(e.subject_bound).lower()} {len(e.payload)}"
    if language == "go":
        out = run([str(cipherctl), "inspect", "--local", ciphertext], b"").decode()
        fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
        fields.setdefault("subject_bound", "false")
        return " ".join(fields[k].strip() for k in ("key", "version", "mode", "subject_bound", "payload_bytes"))
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

    assert inspect_locally(reader, cipherctl, ciphertext) == f"crosslang 1 gcm false {payload_bytes(ciphertext)}"


def payload_bytes(ciphertext: str) -> int:
    return len(base64.b64decode(ciphertext.split(">", 1)[1]))


@pytest.fixture(scope="module")
def subject_ciphertexts(server: RunningServer, cipherctl: Path) -> dict[str, tuple[str, bytes, str]]:
    """One subject-bound ciphertext per language, each of another subject: (ciphertext, plaintext, context)."""
    made = {}
    for language in LANGUAGES:
        plaintext = f"{language}'s subject {secrets.token_hex(8)} ".encode() + PLAINTEXT_TAIL
        context = f"users.notes/{language}"
        ciphertext = encrypt(language, server, cipherctl, plaintext, context, subject=f"crosslang-user-{language}")
        made[language] = (ciphertext, plaintext, context)
    return made


@pytest.mark.parametrize("source", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_aSubjectBoundCiphertextFromOneLanguage_decryptsInEvery(
    source: str,
    reader: str,
    server: RunningServer,
    cipherctl: Path,
    subject_ciphertexts: dict[str, tuple[str, bytes, str]],
) -> None:
    ciphertext, plaintext, context = subject_ciphertexts[source]

    assert decrypt(reader, server, cipherctl, ciphertext, context) == plaintext


@pytest.mark.parametrize("source", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_everyClientsOwnParser_readsTheSameSubjectBoundHeader(
    source: str, reader: str, cipherctl: Path, subject_ciphertexts: dict[str, tuple[str, bytes, str]]
) -> None:
    ciphertext = subject_ciphertexts[source][0]
    assert ciphertext.startswith("<crosslang/s:gcm>")

    # No version (0), and the payload is the 16-byte subject-key reference then gcm's IV, body and tag.
    assert inspect_locally(reader, cipherctl, ciphertext) == f"crosslang 0 gcm true {payload_bytes(ciphertext)}"


@pytest.fixture(scope="module")
def erased_ciphertexts(server: RunningServer, cipherctl: Path) -> dict[str, tuple[str, str]]:
    """Per language, a ciphertext (made in the next language) of a subject that language then erased, while a
    ciphertext of another subject made alongside still decrypts: (ciphertext, context)."""
    made = {}
    for i, eraser in enumerate(LANGUAGES):
        maker = LANGUAGES[(i + 1) % len(LANGUAGES)]
        subject, context = f"crosslang-erased-by-{eraser}", f"users.email/{eraser}"
        ciphertext = encrypt(maker, server, cipherctl, b"erase me", context, subject=subject)
        kept = encrypt(maker, server, cipherctl, b"keep me", context, subject=f"crosslang-kept-{eraser}")
        assert erase(eraser, server, cipherctl, subject) == "erased"
        assert decrypt("python", server, cipherctl, kept, context) == b"keep me"
        made[eraser] = (ciphertext, context)
    return made


@pytest.mark.parametrize("eraser", LANGUAGES)
@pytest.mark.parametrize("reader", LANGUAGES)
def test_anErasureThroughOneLanguage_isTheTypedSubjectErasedErrorInEvery(
    eraser: str, reader: str, server: RunningServer, cipherctl: Path, erased_ciphertexts: dict[str, tuple[str, str]]
) -> None:
    ciphertext, context = erased_ciphertexts[eraser]

    assert decrypt_erased(reader, server, cipherctl, ciphertext, context) == "subject erased"


@pytest.mark.parametrize("reader", ("python",))
def test_aWrongContext_failsAsDecryptionFailed(
    reader: str, server: RunningServer, cipherctl: Path, ciphertexts: dict[str, tuple[str, bytes, str]]
) -> None:
    ciphertext, _, _ = ciphertexts["typescript"]

    with pytest.raises(cipherd.DecryptionFailedError):
        decrypt(reader, server, cipherctl, ciphertext, "row-other")

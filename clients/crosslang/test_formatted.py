"""Format-preserving values across languages and against an independent FF1: a key of known bytes goes in with
ImportKey (MODE_FF1 and its format), and what the server's EncryptFormatted answers must be what Capital One's Go
FF1 (github.com/capitalone/fpe v1.2.1, run as ff1ref/) computes with the tweak proto/README.md specifies,
SHA-256("cipherd-ff1" || 0x00 || key name || 0x00 || context), for DIGITS, ALPHANUMERIC and an alphabet. Then a
value encrypted through each client language decrypts through every other. Run by `make test-crosslang`, as
test_crosslang.py is (the Go and TypeScript and Java commands are its)."""

from __future__ import annotations

import hashlib
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from test_crosslang import LANGUAGES, java_cli, run

import cipherd
from server import RunningServer, start_server

HERE = Path(__file__).resolve().parent
FF1_KEY = hashlib.sha256(b"cipherd independent ff1 key").digest()
# ff1ref's numerals, as Go's math/big writes them.
GO_NUMERALS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Each format's characters in numeral order (keys.proto's FpeTemplate), and values of it.
FORMATS = {
    "digits": (cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS), "0123456789", ["0123456789", "4000123412349"]),
    "alphanumeric": (
        cipherd.FpeFormat(template=cipherd.FpeTemplate.ALPHANUMERIC),
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
        ["Customer0042", "zZ09aA"],
    ),
    "alphabet": (
        cipherd.FpeFormat(alphabet="23456789BCDFGHJKMNPQRSTVWXYZ"),
        "23456789BCDFGHJKMNPQRSTVWXYZ",
        ["BCDF2345", "ZZZZ99992222"],
    ),
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    running = start_server(tmp_path_factory.mktemp("formatted"), [], grpc.insecure_channel)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def cipherctl(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = tmp_path_factory.mktemp("bin") / "cipherctl"
    subprocess.run(["go", "build", "-o", str(binary), "./cmd/cipherctl"], cwd=HERE.parent / "go", check=True)
    return binary


@pytest.fixture(scope="module")
def ff1ref(tmp_path_factory: pytest.TempPathFactory) -> Path:
    binary = tmp_path_factory.mktemp("ff1ref") / "ff1ref"
    subprocess.run(["go", "build", "-o", str(binary), "."], cwd=HERE / "ff1ref", check=True, timeout=300)
    return binary


def tweak(key_name: str, context: bytes) -> bytes:
    return hashlib.sha256(b"cipherd-ff1\x00" + key_name.encode() + b"\x00" + context).digest()


def reference(ff1ref: Path, key_name: str, alphabet: str, value: str, context: bytes) -> str:
    """FF1 of `value` under FF1_KEY by ff1ref, its characters mapped to numerals through `alphabet`."""
    numerals = "".join(GO_NUMERALS[alphabet.index(ch)] for ch in value)
    line = f"{FF1_KEY.hex()} {len(alphabet)} {tweak(key_name, context).hex()} {numerals}\n"
    done = subprocess.run([str(ff1ref)], input=line.encode(), capture_output=True, check=True, timeout=60)
    return "".join(alphabet[GO_NUMERALS.index(n)] for n in done.stdout.decode().strip())


@pytest.mark.parametrize("name", list(FORMATS))
def test_encrypt_formatted_is_ff1_with_the_specified_tweak(name: str, server: RunningServer, ff1ref: Path) -> None:
    fmt, alphabet, values = FORMATS[name]
    key = f"ff1-{name}-{uuid.uuid4().hex[:8]}"
    with cipherd.Client(server.target) as client:
        imported = client.import_key_wrapped(key, FF1_KEY, mode=cipherd.Mode.FF1, fpe_format=fmt)
        assert imported.versions[0].fpe_format == fmt
        for value in values:
            for context in (b"", b"users.customer_ref"):
                ct = client.encrypt_formatted(key, value, context=context)
                assert ct.key_version == 1
                assert ct.value == reference(ff1ref, key, alphabet, value, context), (name, value, context)
                assert client.decrypt_formatted(key, ct, context=context) == value


@pytest.fixture(scope="module")
def digits_key(server: RunningServer) -> str:
    key = f"ff1-crosslang-{uuid.uuid4().hex[:8]}"
    with cipherd.Client(server.target) as client:
        client.create_key(key, mode=cipherd.Mode.FF1, fpe_format=cipherd.FpeFormat(template=cipherd.FpeTemplate.DIGITS))
    return key


def fpe_encrypt(language: str, server: RunningServer, cipherctl: Path, key: str, value: str, context: str) -> str:
    """VALUE<TAB>KEY_VERSION of `value` encrypted through `language`."""
    if language == "python":
        with cipherd.Client(server.target) as client:
            ct = client.encrypt_formatted(key, value, context=context.encode())
            return f"{ct.value}\t{ct.key_version}"
    if language == "java":
        command = java_cli("fpe-encrypt", server.target, key, context)
    elif language == "typescript":
        command = ["node", str(HERE / "ts-cli.mjs"), "fpe-encrypt", server.target, key, context]
    else:
        command = [str(cipherctl), "--addr", server.target, "--insecure", "fpe", "encrypt", key, "--context", context]
    return run(command, value.encode()).decode().strip()


def fpe_decrypt(language: str, server: RunningServer, cipherctl: Path, key: str, line: str, context: str) -> str:
    if language == "python":
        value, version = line.split("\t")
        with cipherd.Client(server.target) as client:
            return client.decrypt_formatted(key, cipherd.FormattedValue(value, int(version)), context=context.encode())
    if language == "java":
        command = java_cli("fpe-decrypt", server.target, key, context)
    elif language == "typescript":
        command = ["node", str(HERE / "ts-cli.mjs"), "fpe-decrypt", server.target, key, context]
    else:  # cipherctl prints PLAINTEXT<TAB>KEY_VERSION
        command = [str(cipherctl), "--addr", server.target, "--insecure", "fpe", "decrypt", key, "--context", context]
        return run(command, line.encode()).decode().strip().split("\t")[0]
    return run(command, line.encode()).decode()


@pytest.mark.parametrize("source", LANGUAGES)
def test_a_formatted_value_made_in_each_language_decrypts_in_every_other(
    source: str, server: RunningServer, cipherctl: Path, digits_key: str
) -> None:
    value = "4000" + str(uuid.uuid4().int)[:8]
    line = fpe_encrypt(source, server, cipherctl, digits_key, value, "payments.account")
    ciphertext, version = line.split("\t")
    assert version == "1" and ciphertext.isdigit() and len(ciphertext) == len(value) and ciphertext != value
    for target in LANGUAGES:
        assert fpe_decrypt(target, server, cipherctl, digits_key, line, "payments.account") == value, (source, target)

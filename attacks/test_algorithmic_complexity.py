"""Findings 3 and 4: algorithmic complexity on caller-controlled strings.

A caller sends each string the server reads at the largest size it accepts: a key name just under
`--max-message-bytes` (4 MiB), a ComputeIndex value to `trim` that is mostly inner whitespace, a
value at the 64 KiB cap (and one byte over it, which must be INVALID_ARGUMENT), and a long name
matched against a policy glob with several `*`. Budget: each answered within 2 s wall, and a cheap
Encrypt on another connection, sent while the expensive call runs, answered OK within 2 s too.
No call may be left unanswered at its 10 s deadline (finding 9). A server per case, so a runaway
thread left by one case cannot slow the next."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import pytest
from answers import Answer, Metadata, unary
from certs import Pem
from google.protobuf.message import Message
from keyring import create_key
from policy import Caller, Rule, write_policy
from servers import Pki, Stubs, Target, connect, serve, tls_and_policy

from cipherd.v1 import crypto_service_pb2 as pb
from cipherd.v1 import keys_pb2

BUDGET_S = 2.0
DEADLINE_S = 10.0
MAX_MESSAGE = 4 * 1024 * 1024
VALUE_CAP = 64 * 1024
KEY = "cheap"
INDEX_KEY = "index"
WIDE = Caller("wide", [Rule(["*"], ["encrypt", "index", "admin"])])
GLOB = "*-*-*-*-*z"
GLOBBER = Caller("globber", [Rule([GLOB], ["encrypt"])])
TRIM = pb.Normalization(trim=True)
ALL = pb.Normalization(trim=True, nfkc=True, casefold=True)


@pytest.fixture
def target(tmp_path_factory: pytest.TempPathFactory, pki: Pki, server_pem: Pem) -> Iterator[Target]:
    d = tmp_path_factory.mktemp("complexity")
    policy = write_policy(d / "policy.yaml", [WIDE, GLOBBER])
    with serve(
        d,
        tls_and_policy(server_pem, policy),
        ca=pki.pem,
    ) as t:
        with connect(t) as stubs:
            create_key(stubs, WIDE.metadata, KEY)
            create_key(stubs, WIDE.metadata, INDEX_KEY, keys_pb2.MODE_HMAC)
            # Warm: the cheap call's time should be the server's answer, not its first key load.
            assert unary(stubs.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), WIDE.metadata).ok
            assert unary(stubs.crypto.ComputeIndex, _index(b"warm", TRIM), WIDE.metadata).ok
        yield t


def _while_running(target: Target, expensive: Callable[[Stubs], Answer]) -> tuple[Answer, Answer]:
    """Runs `expensive` on one connection and, once it is under way, a cheap Encrypt on another."""
    result: list[Answer] = []
    with connect(target) as slow, connect(target) as cheap:
        # Connect both first, so neither time includes a TLS handshake.
        grpc.channel_ready_future(slow.channel).result(timeout=30)
        grpc.channel_ready_future(cheap.channel).result(timeout=30)
        thread = threading.Thread(target=lambda: result.append(expensive(slow)), daemon=True)
        thread.start()
        thread.join(0.3)
        meanwhile = unary(
            cheap.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), WIDE.metadata, timeout=DEADLINE_S
        )
        thread.join(DEADLINE_S + 5)
    assert result, "the expensive call never returned"
    return result[0], meanwhile


def _call(method: Callable[[Stubs], Any], request: Message, metadata: Metadata) -> Callable[[Stubs], Answer]:
    return lambda stubs: unary(method(stubs), request, metadata, DEADLINE_S)


def _index(value: bytes, normalization: pb.Normalization) -> pb.ComputeIndexRequest:
    return pb.ComputeIndexRequest(key_name=INDEX_KEY, value=value, normalization=normalization, length_bytes=16)


def _spaces(total: int) -> bytes:
    return b"x" + b" " * (total - 2) + b"x"


CASES: dict[str, tuple[Callable[[Stubs], Answer], grpc.StatusCode | None]] = {
    # A name just under the message limit, from a caller whose grant covers every name.
    "Encrypt, 4 MiB key name, grant on *": (
        _call(
            lambda s: s.crypto.Encrypt,
            pb.EncryptRequest(key_name="a" * (MAX_MESSAGE - 1024), plaintext=b"x"),
            WIDE.metadata,
        ),
        grpc.StatusCode.INVALID_ARGUMENT,
    ),
    "ComputeIndex trim, x + 40,000 spaces + x": (
        _call(lambda s: s.crypto.ComputeIndex, _index(_spaces(40_002), TRIM), WIDE.metadata),
        grpc.StatusCode.OK,
    ),
    "ComputeIndex trim, 64 KiB value of inner spaces": (
        _call(lambda s: s.crypto.ComputeIndex, _index(_spaces(VALUE_CAP), TRIM), WIDE.metadata),
        grpc.StatusCode.OK,
    ),
    "ComputeIndex trim+nfkc+casefold, 64 KiB value": (
        _call(lambda s: s.crypto.ComputeIndex, _index(_spaces(VALUE_CAP), ALL), WIDE.metadata),
        grpc.StatusCode.OK,
    ),
    "ComputeIndex trim, 64 KiB + 1 value": (
        _call(lambda s: s.crypto.ComputeIndex, _index(_spaces(VALUE_CAP + 1), TRIM), WIDE.metadata),
        grpc.StatusCode.INVALID_ARGUMENT,
    ),
    "ComputeIndexBatch trim, 8 values of 64 KiB": (
        _call(
            lambda s: s.crypto.ComputeIndexBatch,
            pb.ComputeIndexBatchRequest(
                key_name=INDEX_KEY,
                normalization=TRIM,
                length_bytes=16,
                items=[pb.ComputeIndexBatchItem(value=_spaces(VALUE_CAP))] * 8,
            ),
            WIDE.metadata,
        ),
        None,
    ),
    f"Encrypt, 200 KB name of '-' against the glob {GLOB}": (
        _call(
            lambda s: s.crypto.Encrypt,
            pb.EncryptRequest(key_name="a" + "-" * 200_000, plaintext=b"x"),
            GLOBBER.metadata,
        ),
        None,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_caller_controlled_strings_at_their_limit_answer_in_time(target: Target, case: str) -> None:
    expensive, expected = CASES[case]
    answer, meanwhile = _while_running(target, expensive)
    problems = []
    if answer.code == grpc.StatusCode.DEADLINE_EXCEEDED or answer.seconds > BUDGET_S:
        problems.append(f"answered {answer.brief()}: budget {BUDGET_S} s")
    if expected is not None and answer.code != expected:
        problems.append(f"answered {answer.brief()}, expected {expected.name}")
    if answer.size > 1024 and not answer.ok:
        problems.append(f"the refusal is {answer.size} B: it echoes the request")
    if not meanwhile.ok or meanwhile.seconds > BUDGET_S:
        problems.append(f"a cheap Encrypt on another connection meanwhile: {meanwhile.brief()}")
    assert not problems, f"{case}: " + "; ".join(problems)

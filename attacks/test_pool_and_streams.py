"""Finding 5: holding the cipher pool, and a connection's streams, open for nothing.

With `--cipher-pool-max 4`, an attacker opens 16 EncryptStreams (a connection each, one after the other),
sends one item on each, reads its answer and then sits idle with the stream open. If a stream keeps its ciphers until it
ends, four such streams starve everyone. Budget: 0 RESOURCE_EXHAUSTED (0 failures at all, each
within 2 s) in 20 unary Encrypts by another caller meanwhile; the 16 streams' own items answered OK.
And the server's per-connection call cap (`--max-calls-per-connection`): one connection opening 4 more streams than the
cap gets at most the cap served, and the others end before their 5 s deadline instead of being held."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import grpc
import pytest
from answers import unary
from servers import Stubs, Target, connect, help_text, serve

from cipherd.v1 import crypto_service_pb2 as pb

POOL_MAX = 4
HOLDERS = 16
UNARY_CALLS = 20
UNARY_BUDGET_S = 2.0
PER_CONNECTION_CAP = 8
HOLD_DEADLINE_S = 60.0
EXCESS_DEADLINE_S = 5.0
KEY = "demo"
_CAP_OPTION = re.compile(r"--max-calls-per-connection|--max-concurrent-(?:calls|streams)[a-z-]*per-connection")


def _cap_option() -> str | None:
    match = _CAP_OPTION.search(help_text())
    return match.group(0) if match else None


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    args = ["--cipher-pool-max", str(POOL_MAX), "--demo-key", KEY]
    option = _cap_option()
    if option:
        args += [option, str(PER_CONNECTION_CAP)]
    with serve(tmp_path_factory.mktemp("pool"), args) as t:
        yield t


class HeldStream:
    """An EncryptStream that sends one item, reads its answer, then stays open until released."""

    def __init__(self, stubs: Stubs, reference: str, deadline_s: float) -> None:
        self.release = threading.Event()
        self.call: Any = stubs.crypto.EncryptStream(self._requests(reference), timeout=deadline_s)
        self.first: pb.EncryptStreamResponse | None = None
        self.error: grpc.StatusCode | None = None
        self.ended = threading.Event()
        self.answered = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _requests(self, reference: str) -> Iterator[pb.EncryptStreamRequest]:
        yield pb.EncryptStreamRequest(reference=reference, key_name=KEY, plaintext=b"held")
        self.release.wait(HOLD_DEADLINE_S)

    def _read(self) -> None:
        try:
            for response in self.call:
                if self.first is None:
                    self.first = response
                    self.answered.set()
        except grpc.RpcError as e:
            failed: Any = e
            self.error = failed.code()
        finally:
            self.answered.set()
            self.ended.set()

    def close(self) -> None:
        self.release.set()
        self.call.cancel()
        self.ended.wait(10)


def test_idle_streams_do_not_starve_the_cipher_pool(target: Target) -> None:
    with ExitStack() as stack:
        held = []
        # One after the other: each stream is answered, then idle, before the next opens, so what is
        # measured is idle streams holding ciphers, not 16 first items contending for 4 ciphers at once
        # (a burst the pool's 200 ms wait may rightly refuse on a loaded machine).
        for i in range(HOLDERS):
            stubs = stack.enter_context(connect(target))
            stream = HeldStream(stubs, str(i), HOLD_DEADLINE_S)
            stack.callback(stream.close)
            held.append(stream)
            assert stream.answered.wait(10), "a held stream's first item was never answered"
        own = [
            s.first.result.error.message
            if s.first and s.first.result.HasField("error")
            else (s.error.name if s.error else "")
            for s in held
        ]
        with connect(target) as other:
            answers = [
                unary(other.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), timeout=10)
                for _ in range(UNARY_CALLS)
            ]
    problems = []
    exhausted = sum(1 for a in answers if a.code == grpc.StatusCode.RESOURCE_EXHAUSTED)
    slow_or_failed = [a.brief() for a in answers if not a.ok or a.seconds > UNARY_BUDGET_S]
    if exhausted or slow_or_failed:
        problems.append(
            f"{exhausted} of {UNARY_CALLS} unary Encrypts RESOURCE_EXHAUSTED; "
            f"{len(slow_or_failed)} failed or over {UNARY_BUDGET_S} s: {slow_or_failed[:2]}"
        )
    failures = [answer for answer in own if answer]
    if failures:
        problems.append(f"{len(failures)} of {HOLDERS} streams' own items failed: {set(failures)}")
    assert not problems, f"with {HOLDERS} idle streams open and --cipher-pool-max {POOL_MAX}: " + "; ".join(problems)


def test_one_connection_cannot_hold_more_streams_than_its_cap(target: Target) -> None:
    option = _cap_option()
    # Not a skip: a server without the cap lets one connection hold calls without bound (finding 5).
    assert option is not None, "the jar has no per-connection call cap option (--max-calls-per-connection) in --help"
    with connect(target) as stubs, ExitStack() as stack:
        # The cap's worth of streams, held open for the whole test, then 4 more on the same connection.
        holders = []
        for i in range(PER_CONNECTION_CAP):
            stream = HeldStream(stubs, f"held-{i}", HOLD_DEADLINE_S)
            stack.callback(stream.close)
            holders.append(stream)
        for stream in holders:
            stream.answered.wait(EXCESS_DEADLINE_S)
        excess = []
        for i in range(4):
            stream = HeldStream(stubs, f"excess-{i}", EXCESS_DEADLINE_S)
            stack.callback(stream.close)
            excess.append(stream)
        start = time.monotonic()
        for stream in excess:
            stream.ended.wait(max(0.0, EXCESS_DEADLINE_S + 2 - (time.monotonic() - start)))
        held = sum(1 for s in holders if s.first is not None)
        served = held + sum(1 for s in excess if s.first is not None)
        unended = sum(1 for s in excess if s.first is None and not s.ended.is_set())
        with connect(target) as other:
            meanwhile = unary(other.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), timeout=10)
    assert held == PER_CONNECTION_CAP, f"only {held} of the cap's {PER_CONNECTION_CAP} streams were served"
    assert served <= PER_CONNECTION_CAP, f"{option} {PER_CONNECTION_CAP}: {served} streams served on one connection"
    assert unended == 0, f"{unended} streams over the cap neither served nor ended by their deadline"
    assert meanwhile.ok, f"another connection meanwhile: {meanwhile.brief()}"

"""Issue 29: the transport as a lever on the log, without credentials.

Log flooding: grpc-java logged a WARN with a full stack trace for every malformed stream (a bad `grpc-timeout`
10.3 KB, a bad `-bin` header, an upper-case header name, a truncated or compressed frame, an oversized message
4-5 KB each), so one connection wrote megabytes a second. 100 streams of each of the six kinds on one connection
(600 in all). Budget: the server's log grows by at most 50 B per malformed stream amortised (30 KB in all) and
holds no stack trace; `cipherd_transport_errors_total{kind}` counts each stream once.

Rapid reset: one connection opens and at once resets up to 5,000 Encrypt streams (HEADERS, DATA, RST_STREAM).
Budget: the server sends GOAWAY (ENHANCE_YOUR_CALM) within 20 s, having taken at most 2,000 of the reset streams
(`cipherd_transport_errors_total{kind="reset_before_answer"}`, which must count them); the log grows by at most
2 KiB in all (no access line per reset stream); a well-behaved client on another connection makes every one of
its Encrypts meanwhile (each OK within 2 s)."""

from __future__ import annotations

import re
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator

import pytest
from answers import Answer, unary
from h2.errors import ErrorCodes
from raw_http2 import RawConnection, grpc_frame, request_headers
from servers import Target, connect, serve

from cipherd.v1 import crypto_service_pb2 as pb

KEY = "demo"
ENCRYPT = "/cipherd.v1.CryptoService/Encrypt"
STREAMS_PER_KIND = 100
BATCH = 50  # streams open at once, under the server's 128 per connection
LOG_BYTES_PER_STREAM = 50
RESET_STREAMS = 5_000
RESETS_BEFORE_GOAWAY = 2_000
GOAWAY_WITHIN_S = 20.0
RESET_LOG_BUDGET = 2 * 1024
WELL_BEHAVED_BUDGET_S = 2.0
WELL_BEHAVED_ID = "well-behaved"
_COUNTER = re.compile(r'^cipherd_transport_errors_total\{kind="([a-z_]+)",?\} ([0-9.eE+]+)$', re.M)

ENCRYPT_REQUEST = pb.EncryptRequest(key_name=KEY, plaintext=b"x").SerializeToString()

Stream = Callable[[RawConnection], int]
"""Opens one malformed stream on the connection; returns its id."""

MALFORMED: dict[str, tuple[str, Stream]] = {
    "bad grpc-timeout": ("malformed_header", lambda c: c.open(request_headers(ENCRYPT, [("grpc-timeout", "bogus")]))),
    "bad -bin value": (
        "malformed_header",
        lambda c: c.open(request_headers(ENCRYPT, [("x-probe-bin", "!!not base64")])),
    ),
    "upper-case header name": ("malformed_header", lambda c: c.open(request_headers(ENCRYPT, [("X-Probe", "v")]))),
    "truncated frame": (
        "malformed_message",
        lambda c: c.open(
            request_headers(ENCRYPT), grpc_frame(ENCRYPT_REQUEST, declared_length=len(ENCRYPT_REQUEST) + 100)
        ),
    ),
    "compressed frame without grpc-encoding": (
        "malformed_message",
        lambda c: c.open(request_headers(ENCRYPT), grpc_frame(ENCRYPT_REQUEST, compressed=True)),
    ),
    "oversized message": (
        "oversized_message",
        lambda c: c.open(request_headers(ENCRYPT), grpc_frame(ENCRYPT_REQUEST, declared_length=5 * 1024 * 1024)),
    ),
}


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    # The server's defaults: the limits under test are what every deployment gets.
    with serve(tmp_path_factory.mktemp("transport"), ["--demo-key", KEY]) as t:
        yield t


def counters(target: Target) -> dict[str, float]:
    """cipherd_transport_errors_total by kind, from /metrics; {} on a server without it."""
    url = f"http://127.0.0.1:{target.server.http_port}/metrics"
    with urllib.request.urlopen(url, timeout=10) as response:
        text = response.read().decode()
    return {kind: float(value) for kind, value in _COUNTER.findall(text)}


def quiet_log_size(target: Target, settle_s: float = 1.0, limit_s: float = 15.0) -> int:
    """Bytes the server has logged, once its log has not grown for `settle_s` (or after `limit_s`)."""
    deadline = time.monotonic() + limit_s
    size = sum(len(line.encode()) for line in list(target.server.log))
    while time.monotonic() < deadline:
        time.sleep(settle_s)
        now = sum(len(line.encode()) for line in list(target.server.log))
        if now == size:
            break
        size = now
    return size


def grown_log(target: Target, start: int) -> str:
    """What the server logged past its first `start` bytes."""
    text = "".join(target.server.log).encode()
    return text[start:].decode(errors="replace")


def warm_up(target: Target) -> None:
    with connect(target) as stubs:
        assert unary(stubs.crypto.Encrypt, pb.EncryptRequest(key_name=KEY, plaintext=b"x"), timeout=30).ok


def test_malformed_streams_cost_the_log_a_bounded_amount(target: Target) -> None:
    warm_up(target)
    before_counts = counters(target)
    before = quiet_log_size(target)
    sent: dict[str, int] = {}
    unanswered: dict[str, int] = {}
    connection = RawConnection(target.server.port)
    try:
        for name, (_, open_stream) in MALFORMED.items():
            for first in range(0, STREAMS_PER_KIND, BATCH):
                streams = [open_stream(connection) for _ in range(min(BATCH, STREAMS_PER_KIND - first))]
                connection.flush()
                sent[name] = sent.get(name, 0) + len(streams)
                if not connection.await_closed(streams, 20):
                    unanswered[name] = unanswered.get(name, 0) + len(set(streams) - connection.closed)
                assert not connection.disconnected, f"the server closed the connection during {name!r}"
    finally:
        connection.close()
    total = sum(sent.values())
    grown = quiet_log_size(target) - before
    after_counts = counters(target)
    counted = {
        kind: after_counts.get(kind, 0) - before_counts.get(kind, 0)
        for kind in {kind for kind, _ in MALFORMED.values()}
    }
    expected = {kind: 0 for kind in counted}
    for name, (kind, _) in MALFORMED.items():
        expected[kind] += sent[name]
    log = grown_log(target, before)
    traces = [line for line in log.splitlines() if line.startswith("\tat ") or "Exception" in line]
    print(
        f"{total} malformed streams: log +{grown} B ({grown / total:.1f} B each), {len(traces)} stack-trace "
        f"lines, counted {counted}"
    )

    problems = []
    if unanswered:
        problems.append(f"streams the server never ended: {unanswered}")
    if grown > LOG_BYTES_PER_STREAM * total:
        problems.append(
            f"the log grew {grown} B for {total} malformed streams ({grown / total:.0f} B each, "
            f"budget {LOG_BYTES_PER_STREAM} B): {log[:300]!r}"
        )
    if traces:
        problems.append(f"{len(traces)} stack-trace lines, e.g. {traces[:2]}")
    if counted != expected:
        problems.append(f"cipherd_transport_errors_total counted {counted}, sent {expected}")
    assert not problems, f"{total} malformed streams on one connection: " + "; ".join(problems)


def test_rapid_reset_gets_goaway_and_no_access_line_each(target: Target) -> None:
    warm_up(target)
    before_counts = counters(target)
    before = quiet_log_size(target)
    stop = threading.Event()
    answers: list[Answer] = []

    def well_behaved() -> None:
        with connect(target) as stubs:
            while not stop.is_set():
                answers.append(
                    unary(
                        stubs.crypto.Encrypt,
                        pb.EncryptRequest(key_name=KEY, plaintext=b"x"),
                        [("x-request-id", WELL_BEHAVED_ID)],
                        timeout=10,
                    )
                )
                time.sleep(0.02)

    client = threading.Thread(target=well_behaved, daemon=True)
    client.start()
    resets = 0
    started = time.monotonic()
    connection = RawConnection(target.server.port)
    try:
        while resets < RESET_STREAMS and connection.goaway is None and not connection.disconnected:
            for _ in range(50):
                stream = connection.open(request_headers(ENCRYPT), grpc_frame(ENCRYPT_REQUEST), end_stream=False)
                connection.reset(stream)
                resets += 1
            connection.flush()
            connection.read(0.005)
            if time.monotonic() - started > GOAWAY_WITHIN_S:
                break
        connection.read(2)
        elapsed = time.monotonic() - started
        goaway = connection.goaway
    finally:
        connection.close()
        time.sleep(1)
        stop.set()
        client.join(30)
    quiet_log_size(target)
    # The well-behaved client's own access lines (its request id) are not the attack's.
    log = "".join(
        line
        for line in grown_log(target, before).splitlines(keepends=True)
        if f"client_request_id={WELL_BEHAVED_ID}" not in line
    )
    grown = len(log.encode())
    reset_count = counters(target).get("reset_before_answer", 0) - before_counts.get("reset_before_answer", 0)
    print(
        f"rapid reset: {resets} written in {elapsed:.1f} s, GOAWAY {goaway and goaway.error_code!r}, "
        f"{reset_count:.0f} taken by the server, log +{grown} B; well-behaved: {len(answers)} Encrypts, "
        f"slowest {max((a.seconds for a in answers), default=0):.3f} s"
    )

    problems = []
    if goaway is None:
        problems.append(
            f"no GOAWAY after {resets} resets in {elapsed:.1f} s "
            f"({'connection dropped' if connection.disconnected else 'connection still open'})"
        )
    elif goaway.error_code != ErrorCodes.ENHANCE_YOUR_CALM:
        problems.append(f"GOAWAY {goaway.error_code!r} after {resets} resets, not ENHANCE_YOUR_CALM")
    # The client writes faster than the server reads, and grpc-java's GOAWAY names no last stream: the streams
    # the server took before it are the resets it counted.
    if not 1 <= reset_count <= RESETS_BEFORE_GOAWAY:
        problems.append(
            f'cipherd_transport_errors_total{{kind="reset_before_answer"}} counted {reset_count:.0f} '
            f"reset streams (of {resets} written), not between 1 and {RESETS_BEFORE_GOAWAY}"
        )
    if grown > RESET_LOG_BUDGET:
        problems.append(
            f"the log grew {grown} B ({grown / resets:.0f} B per reset stream, budget "
            f"{RESET_LOG_BUDGET} B in all): {log[:300]!r}"
        )
    bad = [a.brief() for a in answers if not a.ok or a.seconds > WELL_BEHAVED_BUDGET_S]
    if not answers or bad:
        problems.append(
            f"the well-behaved client: {len(bad)} of {len(answers)} Encrypts failed or over "
            f"{WELL_BEHAVED_BUDGET_S} s: {bad[:2]}"
        )
    assert not problems, "rapid reset on one connection: " + "; ".join(problems)

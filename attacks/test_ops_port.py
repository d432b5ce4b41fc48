"""Issue 29, finding 1: the probe port stalled by half-sent requests.

An unauthenticated client of the HTTP port (/metrics, /healthz, /readyz: the port kubelet probes) holds 100
connections that each sent `GET /metrics HTTP/1.1` and a `Host:` header and never the blank line that ends the
request, plus 8 that trickle one header byte a second, reopening each as soon as the server closes it, for 20 s.
Meanwhile a prober asks /healthz, /readyz and /metrics again and again. Budget: every probe answered 200 within
1 s (the chart's probe timeout is 2 s), and every held connection closed by the server within the request-time
bound (`--http-request-timeout`, default 2 s, checked by the JDK's timer each second) plus 2 s of slack.
Today's main (two threads, caller-runs, no request time) answered none: two held connections stall the port."""

from __future__ import annotations

import contextlib
import http.client
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from servers import Target, serve

HALF_OPEN = 100
TRICKLING = 8
ATTACK_S = 20.0
PROBE_BUDGET_S = 1.0
REQUEST_TIMEOUT_S = 2  # the server's default --http-request-timeout
# The JDK checks request times once a second, on a timer that drifts on a loaded machine (2 s of slack).
CLOSE_BOUND_S = REQUEST_TIMEOUT_S + 1 + 2
HALF_REQUEST = b"GET /metrics HTTP/1.1\r\nHost: x\r\n"
TRICKLE_START = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: "
PATHS = ("/healthz", "/readyz", "/metrics")


@pytest.fixture(scope="module")
def target(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    with serve(tmp_path_factory.mktemp("ops-port"), []) as target:
        yield target


@dataclass
class Held:
    sock: socket.socket
    opened: float
    trickle: bool
    next_byte: float = 0.0


@dataclass
class Attacker:
    """Holds HALF_OPEN half-sent requests and TRICKLING slow ones open on `port`, reopening each the server
    closes, until stopped; records how long the server let each live."""

    port: int
    stop: threading.Event = field(default_factory=threading.Event)
    holding: threading.Event = field(default_factory=threading.Event)
    lifetimes: list[float] = field(default_factory=list)
    open_now: int = 0
    errors: list[str] = field(default_factory=list)
    pending: list[bool] = field(default_factory=list)

    def _open(self, selector: selectors.DefaultSelector, trickle: bool) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=1)
            sock.sendall(TRICKLE_START if trickle else HALF_REQUEST)
        except OSError as e:  # a stalled server stops accepting too: try again on the next round
            self.errors.append(repr(e))
            self.pending.append(trickle)
            return
        sock.setblocking(False)
        now = time.monotonic()
        selector.register(sock, selectors.EVENT_READ, Held(sock, now, trickle, now + 1))

    def run(self) -> None:
        selector = selectors.DefaultSelector()
        try:
            for i in range(HALF_OPEN + TRICKLING):
                self._open(selector, trickle=i >= HALF_OPEN)
            self.open_now = len(selector.get_map())
            self.holding.set()
            while not self.stop.is_set():
                self.open_now = len(selector.get_map())
                ready = selector.select(timeout=0.1)
                seen = time.monotonic()  # before reopening any: connecting takes time too
                closed = []
                for key, _ in ready:
                    held: Held = key.data
                    try:
                        data = held.sock.recv(4096)
                    except (ConnectionResetError, BlockingIOError):
                        data = b""
                    if data:
                        continue  # an answer (400, 431) before closing: wait for the close
                    self.lifetimes.append(seen - held.opened)
                    selector.unregister(held.sock)
                    held.sock.close()
                    closed.append(held.trickle)
                closed += self.pending
                self.pending.clear()
                for trickle in closed:
                    if not self.stop.is_set():
                        self._open(selector, trickle)
                now = time.monotonic()
                for key in list(selector.get_map().values()):
                    held = key.data
                    if held.trickle and now >= held.next_byte:
                        held.next_byte = now + 1
                        with contextlib.suppress(OSError):  # closed by the server: the select above sees it
                            held.sock.send(b"a")
        finally:
            self.holding.set()
            for key in list(selector.get_map().values()):
                key.data.sock.close()
            selector.close()


def _probe(port: int, path: str) -> tuple[int | str, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_BUDGET_S * 3)
    try:
        connection.request("GET", path, headers={"Connection": "close"})
        response = connection.getresponse()
        response.read()
        status: int | str = response.status
    except OSError as e:
        status = type(e).__name__
    finally:
        connection.close()
    return status, time.monotonic() - started


def test_probes_answer_while_half_open_and_trickling_connections_are_held(target: Target) -> None:
    port = target.server.http_port
    for path in PATHS:
        assert _probe(port, path)[0] == 200, path  # positive control: the port serves without the attack

    attacker = Attacker(port)
    thread = threading.Thread(target=attacker.run, daemon=True)
    thread.start()
    # Every held connection opened and sent its part (a stalled server stops accepting: probe anyway).
    attacker.holding.wait(timeout=10)
    probes: list[tuple[str, int | str, float, int]] = []
    deadline = time.monotonic() + ATTACK_S
    while time.monotonic() < deadline:
        for path in PATHS:
            held = attacker.open_now
            status, seconds = _probe(port, path)
            probes.append((path, status, seconds, held))
        time.sleep(0.25)
    attacker.stop.set()
    thread.join(timeout=10)

    late = [
        (path, status, round(seconds, 3))
        for path, status, seconds, _ in probes
        if status != 200 or seconds >= PROBE_BUDGET_S
    ]
    times = sorted(seconds for _, _, seconds, _ in probes)
    lifetimes = sorted(attacker.lifetimes) or [0.0]
    print(
        f"{len(probes)} probes under attack: median {times[len(times) // 2] * 1000:.0f} ms, "
        f"slowest {times[-1] * 1000:.0f} ms; {len(attacker.lifetimes)} held connections closed by the server "
        f"after a median {lifetimes[len(lifetimes) // 2]:.2f} s, at most {lifetimes[-1]:.2f} s; "
        f"{len(attacker.errors)} attacker connects failed"
    )
    assert not late, f"{len(late)} of {len(probes)} probes failed or took >= {PROBE_BUDGET_S} s: {late[:10]}"
    # The attack was real: while probing, the attacker held all its connections (but for a moment of reconnects).
    holding = sorted(count for *_, count in probes)
    assert holding[len(holding) // 2] >= HALF_OPEN, f"the attacker did not hold its connections: {holding}"
    # Every connection the attacker opened at first was closed by the server, each within the bound;
    # in 20 s each slot is cut several times.
    assert len(attacker.lifetimes) >= 3 * (HALF_OPEN + TRICKLING), len(attacker.lifetimes)
    assert max(attacker.lifetimes) <= CLOSE_BOUND_S, max(attacker.lifetimes)
    for path in PATHS:
        assert _probe(port, path)[0] == 200, path


def test_connections_past_the_limit_are_closed_on_accept(tmp_path: Path) -> None:
    """`--http-max-connections 8`: 8 held connections fill it, a ninth is closed without an answer, and once the
    held ones are cut at the request time the port answers again."""
    with serve(tmp_path, ["--http-max-connections", "8"]) as target:
        port = target.server.http_port
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(8)]
        try:
            for sock in held:
                sock.sendall(HALF_REQUEST)
            time.sleep(0.3)
            status, _ = _probe(port, "/healthz")
            assert status != 200, "a connection past the limit was served"
            started = time.monotonic()
            for sock in held:
                assert sock.recv(1) == b""  # closed by the server
            assert time.monotonic() - started <= CLOSE_BOUND_S
            status, seconds = _probe(port, "/healthz")
            assert status == 200 and seconds < PROBE_BUDGET_S
        finally:
            for sock in held:
                sock.close()

"""Issue 28, F6 and the off-host copy: `--audit-required` holds for streams, and the sink's copy is the file's.

F6: a caller opens a DecryptStream on a server with `--audit-log` and `--audit-required`, gets 5 items
served, and keeps it open while the audit file stops growing (RLIMIT_FSIZE set on the running server
with prlimit, a few KiB above the file's size: writes past it fail with EFBIG, as on a full disk).
Once a unary Encrypt is refused AUDIT_UNAVAILABLE, the stream sends 20 more items.
Budget: 0 items served after the first refused call; each item sent is answered with an AUDIT_UNAVAILABLE
item error or covered by the stream's UNAVAILABLE (AUDIT_UNAVAILABLE) end, none left unanswered.

Alone: the same, but no other call, and the file cannot grow by a byte: the stream sends 200 items at once.
Budget: at most 80 items served after the limit (the 64 a durable record covers beyond what the stream had
asked for, plus its 16-item flow-control window); none left unanswered.

Sink: with `--audit-sink tcp://127.0.0.1:PORT` and `--audit-required`, 8 threads make 40 calls each
(Encrypt, EncryptBatch, EncryptStream, refused calls on missing keys), the receiver is stopped and
started again in the middle. Budget: 0 bytes of difference between the receiver's copy and the file (the
same lines, in the same order), the copy verifies as one intact chain; while the receiver is gone calls
fail AUDIT_UNAVAILABLE (0 served unrecorded off-host), and are served again once it is back.
"""

from __future__ import annotations

import contextlib
import queue
import resource
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from answers import error_reason
from keyring import create_key
from servers import Stubs, connect, has_option, serve

from cipherd.audit import verify
from cipherd.v1 import crypto_service_pb2 as pb

TIMEOUT_S = 30.0
KEY = "f6-orders"
ROOM_BYTES = 4096
MAX_FLOOD = 2000


def _encrypt(stubs: Stubs) -> str:
    response = stubs.crypto.Encrypt(pb.EncryptRequest(key_name=KEY, plaintext=b"card 4111"), timeout=TIMEOUT_S)
    return str(response.ciphertext)


def test_a_stream_opened_before_the_trail_fails_serves_nothing_after(tmp_path: Path) -> None:
    trail = tmp_path / "audit.log"
    with serve(tmp_path, ["--audit-log", str(trail), "--audit-required"]) as target, connect(target) as stubs:
        create_key(stubs, (), KEY)
        sealed = [_encrypt(stubs) for _ in range(30)]

        requests: queue.Queue[pb.DecryptStreamRequest | None] = queue.Queue()
        responses = iter(stubs.crypto.DecryptStream(iter(requests.get, None), timeout=120))
        for i in range(5):
            requests.put(pb.DecryptStreamRequest(reference=f"before-{i}", ciphertext=sealed[i]))
            answer = next(responses)
            assert answer.result.plaintext == b"card 4111", answer

        # The audit file can grow by a few KiB more, then writes fail (EFBIG): a disk that is full.
        pid = target.server.process.pid
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (trail.stat().st_size + ROOM_BYTES, resource.RLIM_INFINITY))
        refused_at = None
        for call in range(MAX_FLOOD):
            try:
                _encrypt(stubs)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.UNAVAILABLE, e
                assert error_reason(e) == "AUDIT_UNAVAILABLE", e
                refused_at = call
                break
        assert refused_at is not None, f"{MAX_FLOOD} calls served though the audit file cannot grow"

        served_after: list[str] = []
        refused_items: list[str] = []
        end: grpc.RpcError | None = None
        sent = [f"after-{i}" for i in range(20)]
        for i, reference in enumerate(sent):
            requests.put(pb.DecryptStreamRequest(reference=reference, ciphertext=sealed[5 + i]))
        requests.put(None)
        try:
            for answer in responses:
                if answer.result.HasField("plaintext"):
                    served_after.append(answer.result.reference)
                else:
                    assert answer.result.error.reason == "AUDIT_UNAVAILABLE", answer
                    refused_items.append(answer.result.reference)
        except grpc.RpcError as e:
            end = e
        assert not served_after, f"{len(served_after)} stream items served after the trail failed: {served_after}"
        assert end is not None, "the stream ended OK though its items could not be recorded"
        assert end.code() == grpc.StatusCode.UNAVAILABLE and error_reason(end) == "AUDIT_UNAVAILABLE", end
        # Answers come in order: the items not answered are exactly those after the last answer.
        assert refused_items == sent[: len(refused_items)]


COVERAGE_BUDGET = 64 + 16


def test_a_stream_alone_serves_no_more_than_its_durable_coverage_after_the_trail_fails(tmp_path: Path) -> None:
    trail = tmp_path / "audit.log"
    with serve(tmp_path, ["--audit-log", str(trail), "--audit-required"]) as target, connect(target) as stubs:
        create_key(stubs, (), KEY)
        sealed = _encrypt(stubs)
        requests: queue.Queue[pb.DecryptStreamRequest | None] = queue.Queue()
        responses = iter(stubs.crypto.DecryptStream(iter(requests.get, None), timeout=120))
        for i in range(5):
            requests.put(pb.DecryptStreamRequest(reference=f"before-{i}", ciphertext=sealed))
            assert next(responses).result.plaintext == b"card 4111"
        resource.prlimit(
            target.server.process.pid, resource.RLIMIT_FSIZE, (trail.stat().st_size, resource.RLIM_INFINITY)
        )
        sent = [f"after-{i}" for i in range(200)]
        for reference in sent:
            requests.put(pb.DecryptStreamRequest(reference=reference, ciphertext=sealed))
        requests.put(None)
        served: list[str] = []
        refused: list[str] = []
        end: grpc.RpcError | None = None
        try:
            for answer in responses:
                if answer.result.HasField("plaintext"):
                    served.append(answer.result.reference)
                else:
                    assert answer.result.error.reason == "AUDIT_UNAVAILABLE", answer
                    refused.append(answer.result.reference)
        except grpc.RpcError as e:
            end = e
        assert len(served) <= COVERAGE_BUDGET, (
            f"{len(served)} of 200 stream items served after the audit file stopped growing (budget {COVERAGE_BUDGET})"
        )
        assert end is not None and error_reason(end) == "AUDIT_UNAVAILABLE", end
        assert served + refused == sent[: len(served) + len(refused)]


class _Receiver:
    """A line receiver on 127.0.0.1 as a forwarder would be: it keeps each connection's whole lines, in order."""

    def __init__(self) -> None:
        self.kept = bytearray()
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._connections: list[socket.socket] = []
        self.port = self.start(0)

    def start(self, port: int) -> int:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen()
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()
        return int(listener.getsockname()[1])

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            with self._lock:
                self._connections.append(connection)
            threading.Thread(target=self._read, args=(connection,), daemon=True).start()

    def _read(self, connection: socket.socket) -> None:
        pending = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return  # a line cut by the connection's end is not kept: the sender sends it again
            pending += chunk
            whole, newline, rest = pending.rpartition(b"\n")
            if newline:
                with self._lock:
                    self.kept += whole + newline
                pending = rest

    def stop(self) -> None:
        with self._lock:
            assert self._listener is not None
            # shutdown first: a close while the acceptor thread waits in accept leaves the port bound.
            with contextlib.suppress(OSError):
                self._listener.shutdown(socket.SHUT_RDWR)
            self._listener.close()
            for connection in self._connections:
                # shutdown, not only close: a close while the reader thread waits in recv sends no FIN.
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            self._connections.clear()

    def copy(self) -> bytes:
        with self._lock:
            return bytes(self.kept)


@pytest.fixture
def receiver() -> Iterator[_Receiver]:
    r = _Receiver()
    yield r
    r.stop()


def _calls(stubs: Stubs, worker: int, count: int, failures: list[str]) -> None:
    for i in range(count):
        try:
            kind = i % 4
            if kind == 0:
                _encrypt(stubs)
            elif kind == 1:
                stubs.crypto.EncryptBatch(
                    pb.EncryptBatchRequest(
                        key_name=KEY, items=[pb.EncryptBatchItem(reference=str(n), plaintext=b"b") for n in range(8)]
                    ),
                    timeout=TIMEOUT_S,
                )
            elif kind == 2:
                items = [pb.EncryptStreamRequest(reference=str(n), key_name=KEY, plaintext=b"s") for n in range(5)]
                assert len(list(stubs.crypto.EncryptStream(iter(items), timeout=TIMEOUT_S))) == 5
            else:
                with pytest.raises(grpc.RpcError):
                    stubs.crypto.Encrypt(
                        pb.EncryptRequest(key_name=f'missing-{worker}-{i}"}}\n', plaintext=b"x"), timeout=TIMEOUT_S
                    )
        except grpc.RpcError as e:
            failures.append(f"{e.code()} {error_reason(e)}")


@pytest.mark.skipif(not has_option("--audit-sink"), reason="this jar has no --audit-sink")
def test_the_sinks_copy_is_the_files_lines_in_order_and_a_gone_sink_fails_calls(
    tmp_path: Path, receiver: _Receiver
) -> None:
    trail = tmp_path / "audit.log"
    args = [
        "--audit-log",
        str(trail),
        "--audit-required",
        "--audit-sink",
        f"tcp://127.0.0.1:{receiver.port}",
        "--audit-sink-timeout",
        "PT1S",
    ]
    with serve(tmp_path, args) as target, connect(target) as stubs:
        create_key(stubs, (), KEY)
        failures: list[str] = []
        workers = [threading.Thread(target=_calls, args=(stubs, w, 40, failures)) for w in range(8)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=300)
        assert not failures, f"calls failed with the sink up: {failures[:5]}"

        receiver.stop()
        with pytest.raises(grpc.RpcError) as gone:
            _encrypt(stubs)
        assert gone.value.code() == grpc.StatusCode.UNAVAILABLE
        assert error_reason(gone.value) == "AUDIT_UNAVAILABLE"

        receiver.start(receiver.port)
        served = None
        deadline = time.monotonic() + 20
        while served is None and time.monotonic() < deadline:
            try:
                served = _encrypt(stubs)
            except grpc.RpcError as e:
                assert error_reason(e) == "AUDIT_UNAVAILABLE", e
                time.sleep(0.2)
        assert served is not None, "calls not served again once the sink was back"
    # Stopped: the last checkpoint is in the file, and sent before the sink closed.
    deadline = time.monotonic() + 10
    while receiver.copy() != trail.read_bytes() and time.monotonic() < deadline:
        time.sleep(0.1)
    copy = tmp_path / "copy.log"
    copy.write_bytes(receiver.copy())
    assert copy.read_bytes() == trail.read_bytes(), "the sink's copy differs from the file"
    verdict = verify([copy])
    assert verdict.intact, f"the sink's copy does not verify: {verdict.problem}"
    assert verdict.calls >= 8 * 40

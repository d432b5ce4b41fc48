"""A raw HTTP/2 client connection (the h2 library over a plain socket to 127.0.0.1) that sends what no gRPC
client library would: header values that do not parse, upper-case header names, broken message frames, streams
reset right after they open. Outbound validation is off so the frames go out exactly as written."""

from __future__ import annotations

import contextlib
import socket
import struct
import time
from collections.abc import Sequence

import h2.config
import h2.connection
import h2.events
import h2.exceptions

Headers = Sequence[tuple[str, str]]


def grpc_frame(message: bytes, *, compressed: bool = False, declared_length: int | None = None) -> bytes:
    """One gRPC length-prefixed message: the compressed flag, the length (declared_length if given, else the
    real one), the bytes."""
    length = len(message) if declared_length is None else declared_length
    return bytes([1 if compressed else 0]) + struct.pack(">I", length) + message


def request_headers(path: str, extra: Headers = ()) -> list[tuple[str, str]]:
    return [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path),
        (":authority", "127.0.0.1"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
        *extra,
    ]


class RawConnection:
    """One HTTP/2 connection; `closed` holds the stream ids the server ended or reset, `goaway` its GOAWAY."""

    def __init__(self, port: int, timeout_s: float = 10.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout_s)
        config = h2.config.H2Configuration(
            client_side=True,
            validate_outbound_headers=False,
            normalize_outbound_headers=False,
            validate_inbound_headers=False,
        )
        self.h2 = h2.connection.H2Connection(config)
        self.h2.initiate_connection()
        self.closed: set[int] = set()
        self.goaway: h2.events.ConnectionTerminated | None = None
        self.disconnected = False
        """Whether the server closed the connection (or a send failed); what it sent before is still read."""
        self._eof = False
        self.flush()

    def flush(self) -> None:
        data = self.h2.data_to_send()
        if data and not self.disconnected:
            try:
                self.sock.sendall(data)
            except OSError:
                self.disconnected = True

    def open(self, headers: Headers, data: bytes | None = None, *, end_stream: bool = True) -> int:
        """Opens a stream with `headers` (ending it there when there is no data) and sends `data`; returns its id."""
        stream = int(self.h2.get_next_available_stream_id())
        self.h2.send_headers(stream, list(headers), end_stream=end_stream and data is None)
        if data is not None:
            self.h2.send_data(stream, data, end_stream=end_stream)
        return stream

    def reset(self, stream: int) -> None:
        self.h2.reset_stream(stream)

    def read(self, seconds: float) -> None:
        """Reads what the server sends for up to `seconds` (less once it has closed the connection)."""
        deadline = time.monotonic() + seconds
        while not self._eof and time.monotonic() < deadline:
            self.sock.settimeout(max(0.01, min(0.2, deadline - time.monotonic())))
            try:
                data = self.sock.recv(1 << 16)
            except TimeoutError:
                continue
            except OSError:
                self.disconnected = self._eof = True
                break
            if not data:
                self.disconnected = self._eof = True
                break
            try:
                events = self.h2.receive_data(data)
            except h2.exceptions.ProtocolError:
                self.disconnected = self._eof = True
                break
            for event in events:
                if isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                    self.closed.add(int(event.stream_id))
                elif isinstance(event, h2.events.ConnectionTerminated):
                    self.goaway = event
            self.flush()

    def await_closed(self, streams: Sequence[int], seconds: float) -> bool:
        """Reads until the server has ended or reset every one of `streams`; whether it did in time."""
        deadline = time.monotonic() + seconds
        while not set(streams) <= self.closed and not self.disconnected and time.monotonic() < deadline:
            self.read(min(0.5, deadline - time.monotonic()))
        return set(streams) <= self.closed

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()

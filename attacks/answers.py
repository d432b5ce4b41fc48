"""What the server answered an attack, as the attacker sees it: status, message, size and time."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError, Message
from google.rpc.error_details_pb2 import ErrorInfo
from grpc_status import rpc_status

from cipherd.errors import ERROR_DOMAIN
from cipherd.errors import from_rpc_error as error_for_call

Metadata = Sequence[tuple[str, str]]


@dataclass(frozen=True)
class Answer:
    code: grpc.StatusCode
    message: str
    size: int
    """Bytes received: the response message when OK, else the status message plus every trailer."""
    seconds: float
    response: Any = None
    reason: str = ""
    """The reason of the status's cipherd ErrorInfo (proto/README.md, "Errors"); "" when it has none."""
    error_metadata: tuple[tuple[str, str], ...] = ()
    """The metadata of that ErrorInfo (the key and version it is about), sorted; () when it has none."""

    @property
    def ok(self) -> bool:
        return self.code == grpc.StatusCode.OK

    def brief(self) -> str:
        return f"{self.code.name} {self.message[:120]!r} ({self.size} B, {self.seconds:.2f} s)"


def error_size(error: grpc.RpcError) -> int:
    """The status message and the trailers (grpc-status-details-bin among them) of a failed call."""
    call: Any = error
    details = call.details() or ""
    trailers = call.trailing_metadata() or ()
    return len(details.encode()) + sum(len(k) + len(v) for k, v in trailers)


def error_reason(error: grpc.RpcError) -> str:
    """The reason a client reads from a failed call, with the Python client's own reading of the details."""
    return error_for_call(error).reason


def error_metadata(error: grpc.RpcError) -> tuple[tuple[str, str], ...]:
    """The metadata of the call's cipherd ErrorInfo, read from the status details as any client could."""
    try:
        status: Any = rpc_status.from_call(error)  # type: ignore[arg-type]
    except (ValueError, DecodeError):
        return ()
    info = ErrorInfo()
    for detail in status.details if status is not None else ():
        if detail.Unpack(info) and info.domain == ERROR_DOMAIN:
            return tuple(sorted(info.metadata.items()))
    return ()


def _failed(error: grpc.RpcError, start: float) -> Answer:
    failed: Any = error
    return Answer(
        failed.code(),
        failed.details() or "",
        error_size(error),
        time.monotonic() - start,
        reason=error_reason(error),
        error_metadata=error_metadata(error),
    )


def unary(method: Any, request: Message, metadata: Metadata = (), timeout: float = 30.0) -> Answer:
    """Calls a unary `method` of a stub; never raises for a status."""
    start = time.monotonic()
    try:
        response, call = method.with_call(request, metadata=tuple(metadata), timeout=timeout)
    except grpc.RpcError as e:
        return _failed(e, start)
    trailers = call.trailing_metadata() or ()
    size = response.ByteSize() + sum(len(k) + len(v) for k, v in trailers)
    return Answer(grpc.StatusCode.OK, "", size, time.monotonic() - start, response)


def stream(
    method: Any, requests: Sequence[Message], metadata: Metadata = (), timeout: float = 30.0
) -> tuple[list[Any], Answer]:
    """Sends `requests` on a bidirectional stream and reads every answer until the call ends."""
    start = time.monotonic()
    responses: list[Any] = []
    call = method(iter(requests), metadata=tuple(metadata), timeout=timeout)
    try:
        for response in call:
            responses.append(response)
    except grpc.RpcError as e:
        return responses, _failed(e, start)
    return responses, Answer(grpc.StatusCode.OK, "", sum(r.ByteSize() for r in responses), time.monotonic() - start)

"""The W3C trace context of the caller reaches cipherd through the client, sync and asyncio, with the
standard gRPC instrumentation (opentelemetry-instrumentation-grpc) patching the channels the client opens:
the server, tracing at sampling 0 so that only a caller's sampled span makes it trace, writes the caller's
trace id into the call's audit record."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from opentelemetry.instrumentation.grpc import GrpcAioInstrumentorClient, GrpcInstrumentorClient
from opentelemetry.sdk.trace import TracerProvider

import cipherd
from server import RunningServer, start_server


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def traced_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[RunningServer, Path]]:
    workdir = tmp_path_factory.mktemp("traced")
    audit_log = workdir / "audit.log"
    # Nothing listens at the endpoint: the spans are dropped, the audit record is what this test reads.
    server = start_server(
        workdir,
        [
            "--otel-endpoint",
            f"http://127.0.0.1:{_closed_port()}",
            "--otel-sampling-ratio",
            "0",
            "--audit-log",
            str(audit_log),
        ],
        grpc.insecure_channel,
    )
    try:
        with cipherd.Client(server.target) as client:
            client.create_key("traced")
        yield server, audit_log
    finally:
        server.stop()


@pytest.fixture
def provider() -> Iterator[TracerProvider]:
    provider = TracerProvider()
    # The instrumentation's constructors carry no annotations.
    sync, aio = GrpcInstrumentorClient(), GrpcAioInstrumentorClient()  # type: ignore[no-untyped-call]
    sync.instrument(tracer_provider=provider)
    aio.instrument(tracer_provider=provider)
    try:
        yield provider
    finally:
        sync.uninstrument()
        aio.uninstrument()
        provider.shutdown()


def _record_of(audit_log: Path, nth: int) -> dict[str, Any]:
    """The record of the server's `nth` Encrypt call (from 1), once written."""
    deadline = time.monotonic() + 10
    while True:
        records = [json.loads(line) for line in audit_log.read_text().splitlines() if line.strip()]
        calls = [r for r in records if r["type"] == "call" and r["method"].endswith("/Encrypt")]
        if len(calls) >= nth or time.monotonic() > deadline:
            record: dict[str, Any] = calls[nth - 1]
            return record
        time.sleep(0.05)


def _encrypt_calls(audit_log: Path) -> int:
    if not audit_log.exists():
        return 0
    return sum(1 for line in audit_log.read_text().splitlines() if '"type":"call"' in line and "/Encrypt" in line)


def test_sync_client_carries_the_callers_trace(
    traced_server: tuple[RunningServer, Path], provider: TracerProvider
) -> None:
    server, audit_log = traced_server
    tracer = provider.get_tracer("checkout")
    with cipherd.Client(server.target) as client:
        before = _encrypt_calls(audit_log)
        with tracer.start_as_current_span("checkout") as span:
            client.encrypt("traced", b"card")
        client.encrypt("traced", b"no span")

    trace_id = format(span.get_span_context().trace_id, "032x")
    assert _record_of(audit_log, before + 1).get("trace_id") == trace_id
    # Outside the span the call is in no trace of the caller's (the instrumentation may start its own).
    assert _record_of(audit_log, before + 2).get("trace_id") != trace_id


def test_async_client_carries_the_callers_trace(
    traced_server: tuple[RunningServer, Path], provider: TracerProvider
) -> None:
    server, audit_log = traced_server
    tracer = provider.get_tracer("checkout")

    async def calls() -> str:
        async with cipherd.AsyncClient(server.target) as client:
            with tracer.start_as_current_span("checkout") as span:
                await client.encrypt("traced", b"card")
            await client.encrypt("traced", b"no span")
        return format(span.get_span_context().trace_id, "032x")

    before = _encrypt_calls(audit_log)
    trace_id = asyncio.run(calls())

    assert _record_of(audit_log, before + 1).get("trace_id") == trace_id
    # Outside the span the call is in no trace of the caller's (the instrumentation may start its own).
    assert _record_of(audit_log, before + 2).get("trace_id") != trace_id

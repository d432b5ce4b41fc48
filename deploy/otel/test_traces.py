"""cipherd's traces as a real OpenTelemetry Collector receives them (built from its Go modules by
.ci/install-otelcol): the jar with tracing on at sampling 1.0 sends its spans over OTLP/gRPC, a caller
sends its own span as a W3C traceparent, and the collector forwards every span it received as OTLP/JSON
to an HTTP receiver of the test's, which reads them back."""

from __future__ import annotations

import base64
import json
import os
import re
import secrets
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from cipherd.v1 import crypto_service_pb2 as crypto
from cipherd.v1 import crypto_service_pb2_grpc as crypto_grpc
from cipherd.v1 import key_admin_service_pb2 as admin
from cipherd.v1 import key_admin_service_pb2_grpc as admin_grpc
from cipherd.v1 import keys_pb2
from server import RunningServer, start_server

PLAINTEXT = b"plaintext-the-collector-must-never-see"
SERVICE_NAME = "cipherd-otel-test"
HERE = Path(__file__).resolve().parent
# Every attribute a cipherd span may carry: anything else exported is a leak this test should see.
SPAN_ATTRIBUTES = {
    "rpc.system",
    "rpc.service",
    "rpc.method",
    "cipherd.key",
    "cipherd.key.version",
    "cipherd.key.mode",
    "cipherd.items",
    "cipherd.error.reason",
    "cipherd.key_cache",
    "cipherd.keystore",
    "cipherd.keystore.operation",
    "exemplar",
}
BOUND_S = 30
ENCRYPT = "Recv.cipherd.v1.CryptoService.Encrypt"
DECRYPT = "Recv.cipherd.v1.CryptoService.Decrypt"


@dataclass(frozen=True)
class Caller:
    """A caller's own span, sent to cipherd as a W3C traceparent."""

    trace_id: str
    span_id: str
    sampled: bool = True

    @staticmethod
    def new(sampled: bool = True) -> Caller:
        return Caller(secrets.token_hex(16), secrets.token_hex(8), sampled)

    def metadata(self) -> list[tuple[str, str]]:
        return [("traceparent", f"00-{self.trace_id}-{self.span_id}-{'01' if self.sampled else '00'}")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Forwarded:
    """The OTLP/JSON export requests the collector forwarded, as an HTTP server on a free port takes them."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        lock = threading.Lock()
        bodies = self.bodies

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                with lock:
                    bodies.append(body)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Collector:
    process: subprocess.Popen[bytes]
    endpoint: str
    forwarded: Forwarded = field(repr=False)

    def written(self) -> str:
        """Everything the collector sent on, as it arrived."""
        return "\n".join(self.forwarded.bodies)

    def spans(self) -> list[dict[str, Any]]:
        """Every span forwarded so far, each with its resource's service.name as "service"."""
        found: list[dict[str, Any]] = []
        for body in list(self.forwarded.bodies):
            for resource_spans in json.loads(body).get("resourceSpans", []):
                service = _attributes(resource_spans.get("resource", {})).get("service.name")
                for scope in resource_spans.get("scopeSpans", []):
                    for span in scope.get("spans", []):
                        found.append({**span, "service": service})
        return found

    def wait_for(self, trace_id: str, *names: str) -> list[dict[str, Any]]:
        """The spans of `trace_id` once those named have all arrived (spans end, and are sent, children first)."""
        deadline = time.monotonic() + BOUND_S
        while True:
            spans = [s for s in self.spans() if s["traceId"] == trace_id]
            if set(names) <= {s["name"] for s in spans} or time.monotonic() > deadline:
                return spans
            time.sleep(0.1)


def _attributes(item: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for attribute in item.get("attributes", []):
        value = attribute["value"]
        out[attribute["key"]] = next(iter(value.values())) if value else None
    return out


@pytest.fixture(scope="module")
def collector(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Collector]:
    binary = os.environ.get("OTELCOL_BIN")
    if not binary:
        pytest.fail("OTELCOL_BIN is not set: run `make test-otel`, which builds the collector (.ci/install-otelcol)")
    workdir = tmp_path_factory.mktemp("collector")
    port = _free_port()
    forwarded = Forwarded()
    env = {**os.environ, "OTLP_GRPC_ENDPOINT": f"127.0.0.1:{port}", "FORWARD_ENDPOINT": forwarded.endpoint}
    log = (workdir / "collector.log").open("wb")
    process = subprocess.Popen(
        [binary, "--config", str(HERE / "collector.yaml")], env=env, stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + BOUND_S
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        "the collector did not start:\n" + (workdir / "collector.log").read_text()
                    ) from None
                time.sleep(0.1)
        yield Collector(process, f"http://127.0.0.1:{port}", forwarded)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        forwarded.close()


def _channel(target: str) -> grpc.Channel:
    return grpc.insecure_channel(target)


@dataclass
class Traced:
    server: RunningServer
    audit_log: Path
    channel: grpc.Channel


@pytest.fixture(scope="module")
def traced(collector: Collector, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Traced]:
    """A jar whose key store holds `orders` but whose cache is cold, tracing every call to the collector."""
    workdir = tmp_path_factory.mktemp("cipherd")
    first = start_server(workdir, [], _channel)
    try:
        with _channel(first.target) as ch:
            admin_grpc.KeyAdminServiceStub(ch).CreateKey(
                admin.CreateKeyRequest(key_name="orders", mode=keys_pb2.MODE_GCM), timeout=10
            )
    finally:
        first.stop()
    audit_log = workdir / "audit.log"
    os.environ["OTEL_BSP_SCHEDULE_DELAY"] = "100"
    server = start_server(
        workdir,
        [
            "--otel-endpoint",
            collector.endpoint,
            "--otel-sampling-ratio",
            "1.0",
            "--otel-service-name",
            SERVICE_NAME,
            "--audit-log",
            str(audit_log),
        ],
        _channel,
    )
    channel = grpc.insecure_channel(server.target)
    try:
        yield Traced(server, audit_log, channel)
    finally:
        channel.close()
        server.stop()


def _server_span(spans: list[dict[str, Any]], method: str) -> dict[str, Any]:
    matching = [s for s in spans if s["name"] == f"Recv.cipherd.v1.CryptoService.{method}"]
    assert len(matching) == 1, f"one server span for {method}, got {[s['name'] for s in spans]}"
    return matching[0]


def test_encrypt_on_a_cold_cache_is_a_child_of_the_callers_span_with_a_store_read_under_it(
    traced: Traced, collector: Collector
) -> None:
    caller = Caller.new()
    stub = crypto_grpc.CryptoServiceStub(traced.channel)

    response = stub.Encrypt(
        crypto.EncryptRequest(key_name="orders", plaintext=PLAINTEXT), metadata=caller.metadata(), timeout=10
    )

    spans = collector.wait_for(caller.trace_id, ENCRYPT, "keystore.read_material")
    call = _server_span(spans, "Encrypt")
    assert call["parentSpanId"] == caller.span_id
    assert call["service"] == SERVICE_NAME
    attributes = _attributes(call)
    assert attributes["rpc.system"] == "grpc"
    assert attributes["rpc.service"] == "cipherd.v1.CryptoService"
    assert attributes["rpc.method"] == "Encrypt"
    assert attributes["cipherd.key"] == "orders"
    assert int(attributes["cipherd.key.version"]) == response.key_version
    assert attributes["cipherd.key.mode"] == "gcm"
    assert int(attributes["cipherd.items"]) == 1
    assert attributes["cipherd.key_cache"] == "miss"
    assert "cipherd.error.reason" not in attributes
    assert not call.get("events"), "no span events unless OTEL_SPAN_EVENT_COUNT_LIMIT asks for them"
    reads = [s for s in spans if s.get("parentSpanId") == call["spanId"]]
    assert "keystore.read_material" in {s["name"] for s in reads}
    for read in reads:
        assert _attributes(read)["cipherd.keystore"] == "embedded"
        assert _attributes(read)["cipherd.key"] == "orders"
    _assert_no_secret(collector, response.ciphertext)


def test_a_warm_call_says_hit_and_a_failed_one_its_reason(traced: Traced, collector: Collector) -> None:
    stub = crypto_grpc.CryptoServiceStub(traced.channel)
    encrypted = stub.Encrypt(crypto.EncryptRequest(key_name="orders", plaintext=PLAINTEXT), timeout=10).ciphertext
    warm, failing = Caller.new(), Caller.new()
    body = encrypted.rsplit(":", 1)[1]
    middle = len(body) // 2  # a base64 digit all of whose bits are data: still base64, no longer authentic
    tampered = encrypted[: -len(body)] + body[:middle] + ("A" if body[middle] != "A" else "B") + body[middle + 1 :]

    stub.Decrypt(crypto.DecryptRequest(ciphertext=encrypted), metadata=warm.metadata(), timeout=10)
    with pytest.raises(grpc.RpcError) as refused:
        stub.Decrypt(crypto.DecryptRequest(ciphertext=tampered), metadata=failing.metadata(), timeout=10)

    hit = _attributes(_server_span(collector.wait_for(warm.trace_id, DECRYPT), "Decrypt"))
    assert hit["cipherd.key_cache"] == "hit"
    assert hit["cipherd.key"] == "orders/v1"
    failed = _server_span(collector.wait_for(failing.trace_id, DECRYPT), "Decrypt")
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert _attributes(failed)["cipherd.error.reason"] == _reason(refused.value) == "DECRYPTION_FAILED"
    assert failed["status"].get("code") == 2  # STATUS_CODE_ERROR: OTLP/JSON writes enums as numbers
    _assert_no_secret(collector, encrypted)


def test_a_caller_that_did_not_sample_is_not_traced_and_its_record_has_no_trace_id(
    traced: Traced, collector: Collector
) -> None:
    traced_caller, unsampled = Caller.new(), Caller.new(sampled=False)
    stub = crypto_grpc.CryptoServiceStub(traced.channel)

    stub.Encrypt(
        crypto.EncryptRequest(key_name="orders", plaintext=b"x"), metadata=traced_caller.metadata(), timeout=10
    )
    stub.Encrypt(crypto.EncryptRequest(key_name="orders", plaintext=b"y"), metadata=unsampled.metadata(), timeout=10)

    assert collector.wait_for(traced_caller.trace_id, ENCRYPT)
    time.sleep(0.5)
    assert not [s for s in collector.spans() if s["traceId"] == unsampled.trace_id]
    records = _audit_records(traced.audit_log, 2)
    assert records[-2].get("trace_id") == traced_caller.trace_id
    assert "trace_id" not in records[-1]


def test_the_latency_histogram_has_an_exemplar_of_a_traced_call(traced: Traced, collector: Collector) -> None:
    caller = Caller.new()
    crypto_grpc.CryptoServiceStub(traced.channel).Encrypt(
        crypto.EncryptRequest(key_name="orders", plaintext=b"z"), metadata=caller.metadata(), timeout=10
    )
    assert collector.wait_for(caller.trace_id, ENCRYPT)

    request = urllib.request.Request(
        f"http://127.0.0.1:{traced.server.http_port}/metrics",
        headers={"Accept": "application/openmetrics-text; version=1.0.0"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        content_type = response.headers["Content-Type"]
        text = response.read().decode()

    assert content_type.startswith("application/openmetrics-text")
    exemplars = re.findall(
        r'grpc_server_processing_duration_seconds_bucket\{[^}]*method="Encrypt"[^}]*\} \S+'
        r' # \{span_id="[0-9a-f]{16}",trace_id="([0-9a-f]{32})"\}',
        text,
    )
    # A bucket keeps one exemplar at a time: the latest traced Encrypt that fell in it names a trace
    # the collector received.
    received = {s["traceId"] for s in collector.spans()}
    assert exemplars and set(exemplars) <= received


def _reason(error: grpc.RpcError) -> str:
    """The ErrorInfo reason the caller got."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return str(info.reason)
    raise AssertionError("no ErrorInfo in the status")


def _audit_records(path: Path, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + BOUND_S
    while True:
        records = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        calls = [r for r in records if r["type"] == "call" and r["method"].endswith("/Encrypt")]
        if len(calls) >= count or time.monotonic() > deadline:
            return calls
        time.sleep(0.1)


def _assert_no_secret(collector: Collector, ciphertext: str) -> None:
    """No exported span names anything beyond the attributes above, nor the plaintext in any encoding, nor
    the ciphertext's body, anywhere in what the collector sent on."""
    written = collector.written()
    body = ciphertext.rsplit(":", 1)[1]
    for secret in (PLAINTEXT.decode(), base64.b64encode(PLAINTEXT).decode(), PLAINTEXT.hex(), body):
        assert secret not in written
    for span in collector.spans():
        if span["service"] == SERVICE_NAME:
            assert set(_attributes(span)) <= SPAN_ATTRIBUTES, span["name"]


@pytest.fixture(scope="module")
def vault(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A Vault dev server (KV v2 at secret/) from the binary .ci/install-vault built: its address and a token
    file."""
    binary = os.environ.get("VAULT_BIN")
    if not binary:
        pytest.fail("VAULT_BIN is not set: run `make test-otel`, which builds Vault (.ci/install-vault)")
    workdir = tmp_path_factory.mktemp("vault")
    token = secrets.token_hex(16)
    token_file = workdir / "token"
    token_file.write_text(token)
    token_file.chmod(0o600)
    port = _free_port()
    log = (workdir / "vault.log").open("wb")
    process = subprocess.Popen(
        [binary, "server", "-dev", f"-dev-root-token-id={token}", f"-dev-listen-address=127.0.0.1:{port}"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "HOME": str(workdir)},
    )
    address = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + BOUND_S
        while True:
            try:
                with urllib.request.urlopen(f"{address}/v1/sys/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("Vault did not start:\n" + (workdir / "vault.log").read_text())
            time.sleep(0.2)
        yield address, token_file
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def test_a_key_another_replica_made_is_read_from_vault_under_the_call(
    vault: tuple[str, Path], collector: Collector, tmp_path: Path
) -> None:
    """Two replicas on one Vault: the untraced one creates a key, the traced one (its cache loaded at start,
    refreshed every 30 s) meets it first on a traced call and reads it from Vault under the call's span."""
    address, token_file = vault
    store = ["--keystore", "vault", "--vault-address", address, "--vault-token-file", str(token_file)]
    creator = start_server(tmp_path / "creator", store, _channel)
    traced = start_server(
        tmp_path / "traced",
        [*store, "--otel-endpoint", collector.endpoint, "--otel-service-name", SERVICE_NAME],
        _channel,
    )
    try:
        with _channel(creator.target) as ch:
            admin_grpc.KeyAdminServiceStub(ch).CreateKey(
                admin.CreateKeyRequest(key_name="ledger", mode=keys_pb2.MODE_GCM), timeout=10
            )
        caller = Caller.new()
        with _channel(traced.target) as ch:
            response = crypto_grpc.CryptoServiceStub(ch).Encrypt(
                crypto.EncryptRequest(key_name="ledger", plaintext=PLAINTEXT), metadata=caller.metadata(), timeout=10
            )

        spans = collector.wait_for(caller.trace_id, ENCRYPT, "keystore.read_key", "keystore.read_material")
        call = _server_span(spans, "Encrypt")
        assert call["parentSpanId"] == caller.span_id
        assert _attributes(call)["cipherd.key_cache"] == "miss"
        reads = [s for s in spans if s.get("parentSpanId") == call["spanId"]]
        assert {"keystore.read_key", "keystore.read_material"} <= {s["name"] for s in reads}
        for read in reads:
            assert _attributes(read)["cipherd.keystore"] == "vault"
            assert _attributes(read)["cipherd.key"] == "ledger"
        _assert_no_secret(collector, response.ciphertext)
        # The trace as the collector received it, for a reader running pytest -s.
        for span in sorted(spans, key=lambda s: int(s["startTimeUnixNano"])):
            print(
                f"{span['name']:45} span {span['spanId']} parent {span.get('parentSpanId', '-'):16} "
                f"{json.dumps(_attributes(span), sort_keys=True)}"
            )
    finally:
        traced.stop()
        creator.stop()


JAVA_CALLER = "java-caller"
SENT = "Sent.cipherd.v1.CryptoService.Encrypt"
ATTEMPT = "Attempt.cipherd.v1.CryptoService.Encrypt"


def test_a_java_callers_span_is_the_root_of_cipherds_and_of_its_vault_read(
    vault: tuple[str, Path], collector: Collector, tmp_path: Path
) -> None:
    """The Java client (openTelemetry(sdk), its SDK exporting to the same collector) calls a traced replica on
    Vault that meets the key first on this call: the collector receives one trace, the caller's span → the
    client's call span → its attempt span → cipherd's server span → the key-store reads from Vault."""
    classpath = os.environ.get("JAVA_CALLER_CLASSPATH")
    if not classpath:
        pytest.fail("JAVA_CALLER_CLASSPATH is not set: run `make test-otel` (deploy/otel/java-caller/classpath)")
    address, token_file = vault
    store = ["--keystore", "vault", "--vault-address", address, "--vault-token-file", str(token_file)]
    creator = start_server(tmp_path / "creator", store, _channel)
    traced = start_server(
        tmp_path / "traced",
        [
            *store,
            "--otel-endpoint",
            collector.endpoint,
            "--otel-sampling-ratio",
            "0",
            "--otel-service-name",
            SERVICE_NAME,
        ],
        _channel,
    )
    try:
        with _channel(creator.target) as ch:
            admin_grpc.KeyAdminServiceStub(ch).CreateKey(
                admin.CreateKeyRequest(key_name="payments", mode=keys_pb2.MODE_GCM), timeout=10
            )
        java = os.environ.get("CIPHERD_JAVA", "java")
        run = subprocess.run(
            [
                java,
                "-cp",
                classpath,
                str(HERE / "java-caller" / "TracedCall.java"),
                traced.target,
                "payments",
                collector.endpoint.removeprefix("http://"),
                JAVA_CALLER,
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 0, run.stderr
        trace_id, caller_span_id = run.stdout.split()[-2:]

        spans = collector.wait_for(
            trace_id, "checkout", SENT, ATTEMPT, ENCRYPT, "keystore.read_key", "keystore.read_material"
        )
        by_name = {s["name"]: s for s in spans}
        assert len(by_name) == len(spans), [s["name"] for s in spans]  # one span of each name
        checkout, sent, attempt, call = by_name["checkout"], by_name[SENT], by_name[ATTEMPT], by_name[ENCRYPT]
        assert checkout["spanId"] == caller_span_id and not checkout.get("parentSpanId")
        assert sent["parentSpanId"] == checkout["spanId"]
        assert attempt["parentSpanId"] == sent["spanId"]
        assert call["parentSpanId"] == attempt["spanId"]
        assert {checkout["service"], sent["service"], attempt["service"]} == {JAVA_CALLER}
        assert call["service"] == SERVICE_NAME
        attributes = _attributes(call)
        assert (attributes["cipherd.key"], attributes["cipherd.key.mode"], attributes["cipherd.key_cache"]) == (
            "payments",
            "gcm",
            "miss",
        )
        reads = [s for s in spans if s.get("parentSpanId") == call["spanId"]]
        assert {s["name"] for s in reads} == {"keystore.read_key", "keystore.read_material"}
        for read in reads:
            assert _attributes(read)["cipherd.keystore"] == "vault"
            assert _attributes(read)["cipherd.key"] == "payments"
            # A child inside its parent's time.
            assert int(call["startTimeUnixNano"]) <= int(read["startTimeUnixNano"])
            assert int(read["endTimeUnixNano"]) <= int(call["endTimeUnixNano"])
        _print_trace(spans)
    finally:
        traced.stop()
        creator.stop()


def _print_trace(spans: list[dict[str, Any]]) -> None:
    """The trace as the collector received it, as a tree (pytest -s shows it)."""
    children: dict[str, list[dict[str, Any]]] = {}
    for span in spans:
        children.setdefault(span.get("parentSpanId", ""), []).append(span)

    def walk(parent: str, depth: int) -> None:
        for span in sorted(children.get(parent, []), key=lambda s: int(s["startTimeUnixNano"])):
            millis = (int(span["endTimeUnixNano"]) - int(span["startTimeUnixNano"])) / 1e6
            print(
                f"{'  ' * depth}{span['name']} [{span['service']}] span {span['spanId']} "
                f"parent {span.get('parentSpanId') or '-'} {millis:.2f} ms "
                f"{json.dumps(_attributes(span), sort_keys=True)}"
            )
            walk(span["spanId"], depth + 1)

    print(f"\ntrace {spans[0]['traceId']}, as the collector received it:")
    walk("", 0)

package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The caller's trace crosses the hop: with {@code openTelemetry(...)} the client's span is a child
 * of the caller's, and the real jar, tracing at sampling ratio 0 (so only a caller's sampled
 * traceparent makes it trace a call), writes the caller's trace id into the call's audit record.
 * The server span's parent as exported is checked against a real Collector by {@code make
 * test-otel}.
 */
class TracingTest {
  @Test
  void theCallersTraceIdReachesTheServerOnlyWithOpenTelemetrySet(@TempDir Path dir)
      throws Exception {
    Path audit = dir.resolve("audit.log");
    InMemorySpanExporter spans = InMemorySpanExporter.create();
    try (TestServer server =
            TestServer.start(
                dir.resolve("server"),
                "--demo-key",
                "demo",
                "--audit-log",
                audit.toString(),
                "--otel-endpoint",
                "http://127.0.0.1:" + closedPort(),
                "--otel-sampling-ratio",
                "0");
        OpenTelemetrySdk sdk =
            OpenTelemetrySdk.builder()
                .setTracerProvider(
                    SdkTracerProvider.builder()
                        .addSpanProcessor(SimpleSpanProcessor.create(spans))
                        .build())
                .build();
        CipherdClient traced = CipherdClient.builder(server.target()).openTelemetry(sdk).build();
        CipherdClient untraced = CipherdClient.builder(server.target()).build()) {
      Tracer tracer = sdk.getTracer("checkout");
      Span caller = tracer.spanBuilder("checkout").startSpan();
      try (Scope ignored = caller.makeCurrent()) {
        traced.encrypt("demo", "traced".getBytes(StandardCharsets.UTF_8));
        untraced.encrypt("demo", "untraced".getBytes(StandardCharsets.UTF_8));
      } finally {
        caller.end();
      }

      String traceId = caller.getSpanContext().getTraceId();
      List<SpanData> clientSpans =
          spans.getFinishedSpanItems().stream()
              .filter(s -> s.getName().endsWith("cipherd.v1.CryptoService.Encrypt"))
              .toList();
      // One call span (Sent.) with one attempt span (Attempt.) under it, for the traced client
      // only.
      assertEquals(2, clientSpans.size(), clientSpans.toString());
      SpanData call = named(clientSpans, "Sent.cipherd.v1.CryptoService.Encrypt");
      SpanData attempt = named(clientSpans, "Attempt.cipherd.v1.CryptoService.Encrypt");
      assertEquals(traceId, call.getTraceId());
      assertEquals(caller.getSpanContext().getSpanId(), call.getParentSpanId());
      assertEquals(call.getSpanId(), attempt.getParentSpanId());

      List<JsonObject> records = encryptRecords(audit, 2);
      assertEquals(2, records.size(), records.toString());
      assertEquals(traceId, records.get(0).get("trace_id").getAsString());
      assertFalse(records.get(1).has("trace_id"), records.get(1).toString());
    }
  }

  private static SpanData named(List<SpanData> spans, String name) {
    Optional<SpanData> found = spans.stream().filter(s -> s.getName().equals(name)).findFirst();
    assertTrue(found.isPresent(), "no span " + name + " in " + spans);
    return found.get();
  }

  private static List<JsonObject> encryptRecords(Path audit, int count)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (true) {
      List<JsonObject> records =
          Files.exists(audit)
              ? Files.readAllLines(audit).stream()
                  .filter(line -> !line.isBlank())
                  .map(line -> JsonParser.parseString(line).getAsJsonObject())
                  .filter(r -> "call".equals(r.get("type").getAsString()))
                  .filter(r -> r.get("method").getAsString().endsWith("/Encrypt"))
                  .toList()
              : List.of();
      if (records.size() >= count || Instant.now().isAfter(deadline)) {
        return records;
      }
      Thread.sleep(50);
    }
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

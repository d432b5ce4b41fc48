package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.logging.AccessLogInterceptor;
import io.cipherd.server.logging.LogFormat;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.tracing.Tracing;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A real cipherd on loopback with tracing on (spans into memory, every call sampled unless its
 * caller's traceparent says otherwise): the server span's parent is the caller's span, it carries
 * cipherd's attributes and a key-store child span on a cache miss, the audit record carries its
 * trace id, and the latency histogram's exemplar points at it. The collector test ({@code make
 * test-otel}) checks the same over OTLP from the jar.
 */
class TracedServerTest {
  private static final String PLAINTEXT = "plaintext-that-must-never-be-exported";

  @TempDir Path dataDir;
  @TempDir Path auditDir;

  private final InMemorySpanExporter spans = InMemorySpanExporter.create();
  private CipherdServer server;
  private ManagedChannel channel;
  private Cipherd services;

  @BeforeEach
  void start() throws Exception {
    OpenTelemetrySdk sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    Tracing tracing = Tracing.with(sdk);
    ServerConfig config = TestServers.config(dataDir).build();
    services =
        TestServers.services(config)
            .metrics(new CipherdMetrics(false, tracing.exemplars()))
            .tracing(tracing)
            .audit(
                new AuditConfig(
                    auditDir.resolve("audit.log"), false, Duration.ofMillis(50), 1 << 20))
            .build();
    server = TestServers.start(config, new ObservabilityConfig(0, LogFormat.TEXT, false), services);
    services.admin().create("orders", KeyTemplate.of(CipherMode.GCM).withKeySizeBits(256));
    channel = TestServers.channel(server);
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.close();
  }

  @Test
  void encrypt_onACacheMiss_isAChildOfTheCallersSpan_withAStoreReadUnderIt() throws Exception {
    services.forgetKeys();
    Caller caller = Caller.sampled();

    EncryptResponse response = encrypt(caller);

    SpanData call = serverSpan(caller);
    assertThat(call.getName()).isEqualTo("Recv.cipherd.v1.CryptoService.Encrypt");
    assertThat(call.getParentSpanId()).isEqualTo(caller.spanId);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("rpc.method"))).isEqualTo("Encrypt");
    assertThat(call.getAttributes().get(AttributeKey.stringKey("rpc.service")))
        .isEqualTo("cipherd.v1.CryptoService");
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key"))).isEqualTo("orders");
    assertThat(call.getAttributes().get(AttributeKey.longKey("cipherd.key.version")))
        .isEqualTo(response.getKeyVersion());
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key.mode")))
        .isEqualTo("gcm");
    assertThat(call.getAttributes().get(AttributeKey.longKey("cipherd.items"))).isEqualTo(1);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key_cache")))
        .isEqualTo("miss");
    List<SpanData> reads =
        spans.getFinishedSpanItems().stream()
            .filter(s -> s.getParentSpanId().equals(call.getSpanId()))
            .filter(s -> s.getName().startsWith("keystore."))
            .toList();
    assertThat(reads).extracting(SpanData::getName).contains("keystore.read_material");
    assertThat(reads)
        .allSatisfy(
            read ->
                assertThat(read.getAttributes().get(AttributeKey.stringKey("cipherd.keystore")))
                    .isEqualTo("embedded"));
    assertNoSecretIn(response.getCiphertext());
  }

  @Test
  void encrypt_onACacheHit_saysHit_andReadsNoStore() throws Exception {
    encrypt(Caller.sampled());
    Caller caller = Caller.sampled();

    encrypt(caller);

    SpanData call = serverSpan(caller);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key_cache")))
        .isEqualTo("hit");
    assertThat(spans.getFinishedSpanItems())
        .noneMatch(s -> s.getParentSpanId().equals(call.getSpanId()));
  }

  @Test
  void failedDecrypt_carriesItsErrorReason() throws Exception {
    EncryptResponse encrypted = encrypt(Caller.sampled());
    String ciphertext = encrypted.getCiphertext();
    String tampered = ciphertext.substring(0, ciphertext.length() - 4) + "AAAA";
    if (tampered.equals(ciphertext)) {
      tampered = ciphertext.substring(0, ciphertext.length() - 4) + "BBBB";
    }
    Caller caller = Caller.sampled();
    DecryptRequest request = DecryptRequest.newBuilder().setCiphertext(tampered).build();

    assertThatThrownBy(() -> stub(caller).decrypt(request))
        .isInstanceOf(StatusRuntimeException.class);

    SpanData call = serverSpan(caller);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.error.reason")))
        .isEqualTo("DECRYPTION_FAILED");
    // As the access log shows it: the key and version the ciphertext's header names.
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key")))
        .isEqualTo("orders/v1");
    assertNoSecretIn(ciphertext);
  }

  @Test
  void aStreamTheClientCancels_stillCarriesWhatItDid() throws Exception {
    Caller caller = Caller.sampled();
    CountDownLatch answered = new CountDownLatch(1);
    StreamObserver<EncryptStreamRequest> requests =
        asyncStub(caller)
            .encryptStream(
                new StreamObserver<>() {
                  @Override
                  public void onNext(EncryptStreamResponse response) {
                    answered.countDown();
                  }

                  @Override
                  public void onError(Throwable t) {}

                  @Override
                  public void onCompleted() {}
                });
    requests.onNext(
        EncryptStreamRequest.newBuilder()
            .setReference("r1")
            .setKeyName("orders")
            .setPlaintext(ByteString.copyFromUtf8(PLAINTEXT))
            .build());
    assertThat(answered.await(10, TimeUnit.SECONDS)).as("the item answered").isTrue();

    requests.onError(Status.CANCELLED.withDescription("the client gives up").asException());

    SpanData call = serverSpan(caller);
    assertThat(call.getAttributes().get(AttributeKey.stringKey("rpc.method")))
        .isEqualTo("EncryptStream");
    assertThat(call.getAttributes().get(AttributeKey.stringKey("cipherd.key"))).isEqualTo("orders");
    assertThat(call.getAttributes().get(AttributeKey.longKey("cipherd.items"))).isEqualTo(1);
  }

  @Test
  void auditRecord_carriesTheTraceId_onlyWhenTheCallIsTraced() throws Exception {
    Caller traced = Caller.sampled();
    Caller notSampled = Caller.notSampled();

    encrypt(traced);
    encrypt(notSampled);

    assertThat(spans.getFinishedSpanItems())
        .noneMatch(s -> s.getTraceId().equals(notSampled.traceId));
    List<String> calls = waitForCallLines(2);
    assertThat(calls.get(0)).contains("\"trace_id\":\"" + traced.traceId + "\"");
    assertThat(calls.get(1)).doesNotContain("trace_id").doesNotContain(notSampled.traceId);
  }

  @Test
  void accessLine_carriesTheTraceId_onlyWhenTheCallIsTraced() throws Exception {
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    Logger access = (Logger) LoggerFactory.getLogger(AccessLogInterceptor.LOGGER);
    lines.start();
    access.addAppender(lines);
    try {
      Caller traced = Caller.sampled();
      Caller notSampled = Caller.notSampled();

      encrypt(traced);
      encrypt(notSampled);

      List<ILoggingEvent> encrypts =
          lines.list.stream()
              .filter(e -> e.getFormattedMessage().contains("CryptoService/Encrypt"))
              .toList();
      assertThat(encrypts).hasSize(2);
      assertThat(encrypts.get(0).getFormattedMessage()).endsWith(" trace_id=" + traced.traceId);
      assertThat(encrypts.get(0).getKeyValuePairs())
          .anySatisfy(
              pair -> {
                assertThat(pair.key).isEqualTo("trace_id");
                assertThat(pair.value).isEqualTo(traced.traceId);
              });
      assertThat(encrypts.get(1).getFormattedMessage())
          .doesNotContain("trace_id")
          .doesNotContain(notSampled.traceId);
    } finally {
      access.detachAppender(lines);
    }
  }

  @Test
  void latencyHistogram_hasAnExemplarOfTheTracedCall_inOpenMetrics() throws Exception {
    Caller caller = Caller.sampled();
    encrypt(caller);
    serverSpan(caller);

    HttpResponse<String> metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.httpPort() + "/metrics"))
                    .header("Accept", "application/openmetrics-text; version=1.0.0")
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(metrics.headers().firstValue("Content-Type").orElse(""))
        .startsWith("application/openmetrics-text");
    assertThat(metrics.body())
        .containsPattern(
            "grpc_server_processing_duration_seconds_bucket\\{[^}]*method=\"Encrypt\"[^}]*\\} \\S+"
                + " # \\{span_id=\"[0-9a-f]{16}\",trace_id=\""
                + caller.traceId
                + "\"\\}");
    HttpResponse<String> plain = TestServers.get(server, "/metrics");
    assertThat(plain.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(plain.body()).doesNotContain("trace_id");
  }

  private EncryptResponse encrypt(Caller caller) {
    return stub(caller)
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("orders")
                .setPlaintext(ByteString.copyFromUtf8(PLAINTEXT))
                .build());
  }

  private CryptoServiceGrpc.CryptoServiceStub asyncStub(Caller caller) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER), caller.header());
    return CryptoServiceGrpc.newStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private CryptoServiceGrpc.CryptoServiceBlockingStub stub(Caller caller) {
    Metadata headers = new Metadata();
    headers.put(Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER), caller.header());
    return CryptoServiceGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
        .withDeadlineAfter(Duration.ofSeconds(10));
  }

  /**
   * The server span of {@code caller}'s call (grpc-java names it {@code Recv.<service>.<method>});
   * it ends as the call's stream closes.
   */
  private SpanData serverSpan(Caller caller) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (System.nanoTime() < deadline) {
      for (SpanData span : spans.getFinishedSpanItems()) {
        if (span.getTraceId().equals(caller.traceId) && span.getName().startsWith("Recv.")) {
          return span;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no server span in trace " + caller.traceId);
  }

  private List<String> waitForCallLines(int count) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      List<String> calls =
          Files.readAllLines(auditDir.resolve("audit.log"), StandardCharsets.UTF_8).stream()
              .filter(line -> line.contains("\"type\":\"call\""))
              .filter(line -> line.contains("CryptoService/Encrypt"))
              .toList();
      if (calls.size() >= count || System.nanoTime() > deadline) {
        return calls;
      }
      Thread.sleep(20);
    }
  }

  /** Nothing exported names the plaintext, in any encoding, or the ciphertext's body. */
  private void assertNoSecretIn(String ciphertext) {
    String base64 = Base64.getEncoder().encodeToString(PLAINTEXT.getBytes(StandardCharsets.UTF_8));
    String hex = HexFormat.of().formatHex(PLAINTEXT.getBytes(StandardCharsets.UTF_8));
    String body = ciphertext.substring(ciphertext.lastIndexOf(':') + 1);
    for (SpanData span : spans.getFinishedSpanItems()) {
      span.getAttributes()
          .forEach(
              (key, value) ->
                  assertThat(String.valueOf(value))
                      .as(span.getName() + " " + key)
                      .doesNotContain(PLAINTEXT)
                      .doesNotContain(base64)
                      .doesNotContain(hex)
                      .doesNotContain(body));
    }
  }

  /** A caller's own span, sent as a W3C traceparent. */
  private record Caller(String traceId, String spanId, boolean recorded) {
    static Caller sampled() {
      return random(true);
    }

    static Caller notSampled() {
      return random(false);
    }

    private static Caller random(boolean sampled) {
      byte[] trace = new byte[16];
      byte[] span = new byte[8];
      ThreadLocalRandom.current().nextBytes(trace);
      ThreadLocalRandom.current().nextBytes(span);
      return new Caller(HexFormat.of().formatHex(trace), HexFormat.of().formatHex(span), sampled);
    }

    String header() {
      return "00-" + traceId + "-" + spanId + (recorded ? "-01" : "-00");
    }
  }
}

package io.cipherd.server.logging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.security.CallerIdentity;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** One access-log line per call, with the fields operators need and nothing secret. */
class AccessLogInterceptorTest {
  private static final Metadata.Key<String> CALLER =
      Metadata.Key.of("test-caller", Metadata.ASCII_STRING_MARSHALLER);

  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private final Logger accessLogger = (Logger) LoggerFactory.getLogger(AccessLogInterceptor.LOGGER);
  @TempDir Path dataDir;
  private Cipherd services;
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() throws InterruptedException {
    accessLogger.detachAppender(lines);
    if (server != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      services.close();
    }
  }

  @Test
  void call_logsMethodKeyCallerStatusAndDuration_withTheRequestId() throws Exception {
    start(identityFromHeader());
    var crypto =
        CryptoServiceGrpc.newBlockingStub(channel)
            .withInterceptors(
                MetadataUtils.newAttachHeadersInterceptor(headers("alice", "req-42")));
    KeyAdminServiceGrpc.newBlockingStub(channel)
        .createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
    lines.list.clear();

    crypto.encrypt(
        EncryptRequest.newBuilder()
            .setKeyName("orders")
            .setPlaintext(ByteString.copyFromUtf8("pii"))
            .build());

    ILoggingEvent line = onlyLine();
    Map<String, String> fields = fields(line);
    assertThat(fields)
        .containsEntry("method", "cipherd.v1.CryptoService/Encrypt")
        .containsEntry("key", "orders")
        .containsEntry("caller", "alice")
        .containsEntry("status", "OK")
        .containsEntry("client_request_id", "req-42")
        .containsKey("duration_ms");
    assertThat(Double.parseDouble(fields.get("duration_ms"))).isPositive();
    // The server's own id, never the caller's: a caller cannot borrow another call's id.
    assertThat(line.getMDCPropertyMap().get("request_id")).matches("[0-9a-f]{16}");
    assertThat(line.getFormattedMessage())
        .isEqualTo(
            "method=cipherd.v1.CryptoService/Encrypt key=orders caller=alice status=OK duration_ms="
                + fields.get("duration_ms")
                + " client_request_id=req-42");
  }

  @Test
  void decrypt_logsTheHeadersKeyName_neverTheCiphertext() throws Exception {
    start(identityFromHeader());
    var crypto = CryptoServiceGrpc.newBlockingStub(channel);
    String forged = "<orders/v7:gcm>QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=";

    assertThatThrownBy(
        () -> crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(forged).build()));

    ILoggingEvent line = onlyLine();
    assertThat(fields(line))
        .containsEntry("key", "orders/v7")
        .containsEntry("status", "INVALID_ARGUMENT");
    assertThat(line.getFormattedMessage()).doesNotContain("QUJDREVG");
    assertThat(line.getMDCPropertyMap().get("request_id")).matches("[0-9a-f]{16}");
  }

  /**
   * At WARN the access logger is off: no line, but the service's own log lines during the call
   * still carry the request id.
   */
  @Test
  void accessLoggerOff_writesNoLine_butTheCallKeepsItsRequestId() throws Exception {
    Level level = accessLogger.getLevel();
    accessLogger.setLevel(Level.WARN);
    try {
      List<String> seenIds = new CopyOnWriteArrayList<>();
      start(
          new ServerInterceptor() {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(
                ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
              seenIds.add(String.valueOf(MDC.get("request_id")));
              return next.startCall(call, headers);
            }
          });
      var crypto =
          CryptoServiceGrpc.newBlockingStub(channel)
              .withInterceptors(
                  MetadataUtils.newAttachHeadersInterceptor(headers("alice", "req-43")));
      KeyAdminServiceGrpc.newBlockingStub(channel)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());

      crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("orders")
              .setPlaintext(ByteString.copyFromUtf8("pii"))
              .build());

      assertThat(lines.list).isEmpty();
      assertThat(seenIds).hasSize(2).last().asString().matches("[0-9a-f]{16}");
      assertThat(seenIds.get(0)).matches("[0-9a-f]{16}");
      assertThat(MDC.get("request_id")).as("restored after the call").isNull();
    } finally {
      accessLogger.setLevel(level);
    }
  }

  @Test
  void hostileKeyName_isNotCopiedIntoTheLog() throws Exception {
    start(identityFromHeader());
    var crypto = CryptoServiceGrpc.newBlockingStub(channel);

    assertThatThrownBy(
        () ->
            crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName("x\nINFO forged line")
                    .setPlaintext(ByteString.copyFromUtf8("p"))
                    .build()));

    assertThat(fields(onlyLine()))
        .containsEntry("key", "<invalid>")
        .containsEntry("status", "INVALID_ARGUMENT");
  }

  @Test
  void callRejectedByAnInnerInterceptor_isStillLogged_withItsIdentity() throws Exception {
    ServerInterceptor denyAll =
        new ServerInterceptor() {
          @Override
          public <Q, A> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
            Context.current()
                .withValue(CallerIdentity.KEY, "mallory")
                .run(
                    () ->
                        call.close(Status.PERMISSION_DENIED.withDescription("no"), new Metadata()));
            return new ServerCall.Listener<>() {};
          }
        };
    start(denyAll);

    assertThatThrownBy(
        () ->
            CryptoServiceGrpc.newBlockingStub(channel)
                .encrypt(EncryptRequest.newBuilder().setKeyName("orders").build()));

    assertThat(fields(onlyLine()))
        .containsEntry("caller", "mallory")
        .containsEntry("status", "PERMISSION_DENIED");
  }

  @Test
  void overARealSocket_theCallerIsThePeerAddress() throws Exception {
    lines.start();
    accessLogger.addAppender(lines);
    try (CipherdServer real = TestServers.start(dataDir, false)) {
      ManagedChannel network = TestServers.channel(real);
      try {
        assertThatThrownBy(
            () ->
                KeyAdminServiceGrpc.newBlockingStub(network)
                    .getKey(GetKeyRequest.newBuilder().setKeyName("absent").build()));
      } finally {
        network.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    assertThat(fields(onlyLine()))
        .containsEntry("method", "cipherd.v1.KeyAdminService/GetKey")
        .containsEntry("key", "absent")
        .containsEntry("status", "NOT_FOUND")
        .hasEntrySatisfying("caller", caller -> assertThat(caller).matches("127\\.0\\.0\\.1:\\d+"));
  }

  @Test
  void overARealSocket_anOversizedRequest_isCounted_withoutALineOrAStackTrace() throws Exception {
    lines.start();
    accessLogger.addAppender(lines);
    long before = PeerErrors.GLOBAL.total(PeerErrors.Kind.OVERSIZED_MESSAGE);
    // TestServers' limit is 64 KiB; the plaintext holds a marker that must appear nowhere.
    ByteString oversized = ByteString.copyFromUtf8("OVERSIZED-SECRET-".repeat(6000));
    String logs;
    try (CapturedLogs captured = new CapturedLogs();
        CipherdServer real = TestServers.start(dataDir, false)) {
      ManagedChannel network = TestServers.channel(real);
      try {
        assertThatThrownBy(
                () ->
                    CryptoServiceGrpc.newBlockingStub(network)
                        .encrypt(
                            EncryptRequest.newBuilder()
                                .setKeyName("orders")
                                .setPlaintext(oversized)
                                .build()))
            .hasMessageStartingWith("RESOURCE_EXHAUSTED")
            .hasMessageContaining("exceeds maximum size 65536");
        // A call after it is logged as usual, so the line above had its chance to appear.
        assertThatThrownBy(
                () ->
                    KeyAdminServiceGrpc.newBlockingStub(network)
                        .getKey(GetKeyRequest.newBuilder().setKeyName("absent").build()))
            .hasMessageStartingWith("NOT_FOUND");
      } finally {
        network.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      logs = captured.text();
    }
    assertThat(fields(onlyLine())).containsEntry("status", "NOT_FOUND");
    assertThat(PeerErrors.GLOBAL.total(PeerErrors.Kind.OVERSIZED_MESSAGE)).isEqualTo(before + 1);
    // Neither grpc-netty's warning with its stack trace nor a line of its own, and never the
    // message's content: the summary line a minute reports it.
    assertThat(logs)
        .doesNotContain("Exception processing message")
        .doesNotContain("exceeds maximum size")
        .doesNotContain("StatusRuntimeException")
        .doesNotContain("RESOURCE_EXHAUSTED")
        .doesNotContain("OVERSIZED");
  }

  @Test
  void overARealSocket_aCallResetBeforeAnyAnswer_isCounted_withoutALine() throws Exception {
    lines.start();
    accessLogger.addAppender(lines);
    long before = PeerErrors.GLOBAL.total(PeerErrors.Kind.RESET_BEFORE_ANSWER);
    try (CipherdServer real = TestServers.start(dataDir, false)) {
      ManagedChannel network = TestServers.channel(real);
      try {
        // Connected first, so the call below reaches the server before its reset.
        assertThatThrownBy(
                () ->
                    KeyAdminServiceGrpc.newBlockingStub(network)
                        .getKey(GetKeyRequest.newBuilder().setKeyName("absent").build()))
            .hasMessageStartingWith("NOT_FOUND");
        // Started and sent, never half-closed: the service waits; then the client resets it.
        ClientCall<EncryptRequest, EncryptResponse> call =
            network.newCall(CryptoServiceGrpc.getEncryptMethod(), CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {}, new Metadata());
        call.sendMessage(EncryptRequest.newBuilder().setKeyName("orders").build());
        Thread.sleep(200);
        call.cancel("reset before any answer", null);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (PeerErrors.GLOBAL.total(PeerErrors.Kind.RESET_BEFORE_ANSWER) == before
            && System.nanoTime() < deadline) {
          Thread.sleep(5);
        }
        Thread.sleep(100);
      } finally {
        network.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
    assertThat(PeerErrors.GLOBAL.total(PeerErrors.Kind.RESET_BEFORE_ANSWER)).isEqualTo(before + 1);
    assertThat(fields(onlyLine())).containsEntry("status", "NOT_FOUND");
  }

  @Test
  void millis_hasThreeDecimals() {
    assertThat(AccessLogInterceptor.millis(1_234_567)).isEqualTo("1.234");
    assertThat(AccessLogInterceptor.millis(5_000)).isEqualTo("0.005");
    assertThat(AccessLogInterceptor.millis(42_070_000)).isEqualTo("42.070");
    assertThat(AccessLogInterceptor.millis(-1)).isEqualTo("0.000");
  }

  private void start(ServerInterceptor inner) throws Exception {
    lines.start();
    accessLogger.addAppender(lines);
    services =
        Cipherd.builder(new InMemoryKeyStore())
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(16))
            .blockingThreads(2)
            .blockingQueue(16)
            .build();
    String name = InProcessServerBuilder.generateName();
    // Interceptors added before addTo run inside the access log, as an authenticating one would.
    server =
        services
            .addTo(InProcessServerBuilder.forName(name).directExecutor().intercept(inner))
            .build()
            .start();
    services.health().markServing();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  /**
   * Sets the caller identity from a test header, as an authenticating interceptor would from a
   * certificate.
   */
  private static ServerInterceptor identityFromHeader() {
    return new ServerInterceptor() {
      @Override
      public <Q, A> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
        String caller = headers.get(CALLER);
        if (caller == null) {
          return next.startCall(call, headers);
        }
        return Contexts.interceptCall(
            Context.current().withValue(CallerIdentity.KEY, caller), call, headers, next);
      }
    };
  }

  private static Metadata headers(String caller, String requestId) {
    Metadata headers = new Metadata();
    headers.put(CALLER, caller);
    headers.put(Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER), requestId);
    return headers;
  }

  private ILoggingEvent onlyLine() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (lines.list.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    List<ILoggingEvent> all = List.copyOf(lines.list);
    assertThat(all).hasSize(1);
    return all.get(0);
  }

  private static Map<String, String> fields(ILoggingEvent line) {
    return line.getKeyValuePairs().stream()
        .collect(Collectors.toMap(kv -> kv.key, kv -> String.valueOf(kv.value)));
  }
}

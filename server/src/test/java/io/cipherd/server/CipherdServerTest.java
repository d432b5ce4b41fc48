package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.cli.ConnectionLimits;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.logging.PeerErrors;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server over a real loopback port, as {@code make run} starts it. */
class CipherdServerTest {
  private static final int MAX_MESSAGE = 64 * 1024;

  @TempDir Path dataDir;

  @Test
  void realPort_servesHealthReflectionAndCrypto() throws Exception {
    try (CipherdServer server = start("127.0.0.1", false);
        Channel channel = new Channel(server.port())) {
      assertThat(
              HealthGrpc.newBlockingStub(channel.managed)
                  .check(
                      HealthCheckRequest.newBuilder()
                          .setService("cipherd.v1.CryptoService")
                          .build())
                  .getStatus())
          .isEqualTo(ServingStatus.SERVING);
      assertThat(listServices(channel.managed))
          .contains(
              "cipherd.v1.CryptoService",
              "cipherd.v1.KeyAdminService",
              "cipherd.v1.AuditService",
              "grpc.health.v1.Health");

      KeyAdminServiceGrpc.newBlockingStub(channel.managed)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("net").build());
      var crypto = CryptoServiceGrpc.newBlockingStub(channel.managed);
      String ciphertext =
          crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("net")
                      .setPlaintext(ByteString.copyFromUtf8("over the wire"))
                      .build())
              .getCiphertext();
      assertThat(
              crypto
                  .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                  .getPlaintext()
                  .toStringUtf8())
          .isEqualTo("over the wire");
    }
  }

  @Test
  void oversizedMessage_isRefused_andTheServerKeepsAnswering() throws Exception {
    try (CipherdServer server = start("127.0.0.1", false);
        Channel channel = new Channel(server.port())) {
      KeyAdminServiceGrpc.newBlockingStub(channel.managed)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("big").build());
      var crypto = CryptoServiceGrpc.newBlockingStub(channel.managed);

      assertThatThrownBy(
              () ->
                  crypto.encrypt(
                      EncryptRequest.newBuilder()
                          .setKeyName("big")
                          .setPlaintext(ByteString.copyFrom(new byte[MAX_MESSAGE + 1]))
                          .build()))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
      assertThat(
              crypto
                  .encrypt(
                      EncryptRequest.newBuilder()
                          .setKeyName("big")
                          .setPlaintext(ByteString.copyFromUtf8("small"))
                          .build())
                  .getKeyVersion())
          .isEqualTo(1);
    }
  }

  @Test
  void restart_keepsEveryKeyAndVersion() throws Exception {
    List<String> ciphertexts = new ArrayList<>();
    try (CipherdServer server = start("127.0.0.1", false);
        Channel channel = new Channel(server.port())) {
      var admin = KeyAdminServiceGrpc.newBlockingStub(channel.managed);
      var crypto = CryptoServiceGrpc.newBlockingStub(channel.managed);
      admin.createKey(CreateKeyRequest.newBuilder().setKeyName("durable").build());
      admin.createKey(
          CreateKeyRequest.newBuilder()
              .setKeyName("durable-chacha")
              .setMode(Mode.MODE_CHACHA)
              .build());
      for (int i = 0; i < 3; i++) {
        for (String key : List.of("durable", "durable-chacha")) {
          ciphertexts.add(
              crypto
                  .encrypt(
                      EncryptRequest.newBuilder()
                          .setKeyName(key)
                          .setPlaintext(ByteString.copyFromUtf8("kept " + key))
                          .build())
                  .getCiphertext());
          admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName(key).build());
        }
      }
    }
    try (CipherdServer server = start("127.0.0.1", false);
        Channel channel = new Channel(server.port())) {
      var crypto = CryptoServiceGrpc.newBlockingStub(channel.managed);
      for (String ciphertext : ciphertexts) {
        String key = ciphertext.substring(1, ciphertext.indexOf('/'));
        assertThat(
                crypto
                    .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                    .getPlaintext()
                    .toStringUtf8())
            .isEqualTo("kept " + key);
      }
      assertThat(
              crypto
                  .encrypt(EncryptRequest.newBuilder().setKeyName("durable").build())
                  .getKeyVersion())
          .isEqualTo(4);
    }
  }

  @Test
  void close_tellsWatchersNotServing_beforeStopping() throws Exception {
    CipherdServer server = start("127.0.0.1", false);
    try (Channel channel = new Channel(server.port())) {
      List<ServingStatus> seen = new CopyOnWriteArrayList<>();
      CompletableFuture<Void> ended = new CompletableFuture<>();
      HealthGrpc.newStub(channel.managed)
          .watch(
              HealthCheckRequest.getDefaultInstance(),
              new StreamObserver<>() {
                @Override
                public void onNext(HealthCheckResponse value) {
                  seen.add(value.getStatus());
                }

                @Override
                public void onError(Throwable t) {
                  ended.complete(null);
                }

                @Override
                public void onCompleted() {
                  ended.complete(null);
                }
              });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (seen.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      server.close();
      ended.get(10, TimeUnit.SECONDS);
      assertThat(seen).containsExactly(ServingStatus.SERVING, ServingStatus.NOT_SERVING);
    }
  }

  /**
   * grpc-java's client honours the SETTINGS_MAX_CONCURRENT_STREAMS the server sends: a call past
   * the limit waits in the client, never reaching the server, until one ends or its deadline
   * passes. (A client that ignored the setting would get RST_STREAM REFUSED_STREAM, UNAVAILABLE.)
   */
  @Test
  void maxCallsPerConnection_holdsAStreamPastTheLimitInTheClient_untilAnotherEnds()
      throws Exception {
    ConnectionLimits two =
        new ConnectionLimits(
            2,
            Duration.ofMinutes(1),
            Duration.ofSeconds(20),
            Duration.ofMinutes(5),
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofSeconds(30),
            1000);
    try (CipherdServer server = start(config("127.0.0.1", false).connections(two).build());
        Channel channel = new Channel(server.port())) {
      KeyAdminServiceGrpc.newBlockingStub(channel.managed)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("capped").build());
      var crypto = CryptoServiceGrpc.newStub(channel.managed);
      List<StreamObserver<EncryptStreamRequest>> open = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Answers answers = new Answers();
        StreamObserver<EncryptStreamRequest> requests = crypto.encryptStream(answers);
        requests.onNext(item("s" + i));
        answers.first.get(10, TimeUnit.SECONDS);
        open.add(requests);
      }

      Answers third = new Answers();
      crypto
          .withDeadlineAfter(500, TimeUnit.MILLISECONDS)
          .encryptStream(third)
          .onNext(item("third"));
      assertThatThrownBy(() -> third.ended.get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
      assertThat(third.first).isCompletedExceptionally();
      assertThat(server.services().streams().open("EncryptStream")).isEqualTo(2);

      open.get(0).onCompleted();
      Answers later = new Answers();
      StreamObserver<EncryptStreamRequest> requests = crypto.encryptStream(later);
      requests.onNext(item("later"));
      assertThat(later.first.get(10, TimeUnit.SECONDS).getResult().hasError()).isFalse();
      requests.onCompleted();
      open.get(1).onCompleted();
    }
  }

  /**
   * HTTP/2 rapid reset: a client that resets more streams than --max-stream-resets in 10 s gets
   * GOAWAY (ENHANCE_YOUR_CALM) and its connection closes, ending the stream it held open too; each
   * reset stream is counted, not logged.
   */
  @Test
  void maxStreamResets_closesTheConnectionOfAClientResettingStreamsFaster() throws Exception {
    ConnectionLimits twenty =
        new ConnectionLimits(
            128,
            Duration.ofMinutes(1),
            Duration.ofSeconds(20),
            Duration.ofMinutes(5),
            Duration.ZERO,
            Duration.ZERO,
            Duration.ofSeconds(30),
            20);
    long resetsBefore = PeerErrors.GLOBAL.total(PeerErrors.Kind.RESET_BEFORE_ANSWER);
    try (CipherdServer server = start(config("127.0.0.1", false).connections(twenty).build());
        Channel channel = new Channel(server.port())) {
      KeyAdminServiceGrpc.newBlockingStub(channel.managed)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("capped").build());
      Answers held = new Answers();
      CryptoServiceGrpc.newStub(channel.managed).encryptStream(held).onNext(item("held"));
      held.first.get(10, TimeUnit.SECONDS);

      for (int i = 0; i < 200 && !held.ended.isDone(); i++) {
        ClientCall<EncryptRequest, EncryptResponse> call =
            channel.managed.newCall(CryptoServiceGrpc.getEncryptMethod(), CallOptions.DEFAULT);
        call.start(new ClientCall.Listener<>() {}, new Metadata());
        call.sendMessage(EncryptRequest.newBuilder().setKeyName("capped").build());
        Thread.sleep(2);
        call.cancel("reset at once", null);
      }

      assertThatThrownBy(() -> held.ended.get(10, TimeUnit.SECONDS))
          .cause()
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              // grpc-java's client reads GOAWAY ENHANCE_YOUR_CALM as RESOURCE_EXHAUSTED, or the
              // connection closing first as UNAVAILABLE.
              e ->
                  assertThat(e.getStatus().getCode())
                      .isIn(Status.Code.RESOURCE_EXHAUSTED, Status.Code.UNAVAILABLE));
    }
    assertThat(PeerErrors.GLOBAL.total(PeerErrors.Kind.RESET_BEFORE_ANSWER) - resetsBefore)
        .isBetween(1L, 25L);
  }

  /**
   * SIGTERM's drain does not wait out the grace period for item streams, which may run for hours:
   * each ends at its start with UNAVAILABLE, after answering every item it received, so a client
   * resumes after the last reference it got and loses nothing; an idle stream ends at once.
   */
  @Test
  void close_endsOpenItemStreams_atTheStartOfTheDrain_everyReceivedItemAnswered() throws Exception {
    CipherdServer server =
        start(config("127.0.0.1", false).shutdownGrace(Duration.ofSeconds(60)).build());
    boolean closed = false;
    try (Channel channel = new Channel(server.port())) {
      KeyAdminServiceGrpc.newBlockingStub(channel.managed)
          .createKey(CreateKeyRequest.newBuilder().setKeyName("capped").build());
      var crypto = CryptoServiceGrpc.newStub(channel.managed);
      Answers busy = new Answers();
      StreamObserver<EncryptStreamRequest> busyRequests = crypto.encryptStream(busy);
      Answers idle = new Answers();
      crypto.encryptStream(idle).onNext(item("only"));
      idle.first.get(10, TimeUnit.SECONDS);
      for (int i = 0; i < 50; i++) {
        busyRequests.onNext(item(Integer.toString(i)));
      }
      busy.first.get(10, TimeUnit.SECONDS);
      // More items on their way while the drain starts: buffered by the client, some sent.
      for (int i = 50; i < 2000; i++) {
        busyRequests.onNext(item(Integer.toString(i)));
      }

      long start = System.nanoTime();
      server.close();
      closed = true;
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(tookMillis)
          .as("close waited %d ms of a 60 s grace", tookMillis)
          .isLessThan(10_000);
      for (Answers answers : List.of(busy, idle)) {
        assertThatThrownBy(() -> answers.ended.get(10, TimeUnit.SECONDS))
            .cause()
            .isInstanceOfSatisfying(
                StatusRuntimeException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
                  assertThat(e.getStatus().getDescription())
                      .contains("server is shutting down")
                      .contains("resume after the last reference received");
                });
      }
      // In order, without a gap, every one answered: resuming after the last loses nothing.
      List<String> references = busy.references();
      // At least the first; how many of the first 50 the server had taken in by the drain depends
      // on flow control (it asks for 16 at a time) and on how busy the machine is.
      assertThat(references.size()).isBetween(1, 2000);
      for (int i = 0; i < references.size(); i++) {
        assertThat(references.get(i)).isEqualTo(Integer.toString(i));
      }
      assertThat(busy.errors()).isZero();
      assertThat(idle.references()).containsExactly("only");
      assertThat(server.services().streams().open("EncryptStream")).isZero();
    } finally {
      if (!closed) {
        server.close();
      }
    }
  }

  @Test
  void plaintextOnNonLoopbackAddress_isRefusedWithoutInsecure() {
    assertThatThrownBy(() -> start("0.0.0.0", false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("--insecure");
  }

  private CipherdServer start(String host, boolean insecure) throws Exception {
    return start(config(host, insecure).build());
  }

  private ServerConfig.Builder config(String host, boolean insecure) {
    return TestServers.config(dataDir)
        .host(host)
        .insecure(insecure)
        .maxInboundMessageBytes(MAX_MESSAGE);
  }

  private CipherdServer start(ServerConfig config) throws Exception {
    return TestServers.start(config, TestServers.services(config).build());
  }

  private static List<String> listServices(ManagedChannel channel) throws Exception {
    CompletableFuture<ServerReflectionResponse> response = new CompletableFuture<>();
    StreamObserver<ServerReflectionRequest> requests =
        ServerReflectionGrpc.newStub(channel)
            .serverReflectionInfo(
                new StreamObserver<>() {
                  @Override
                  public void onNext(ServerReflectionResponse value) {
                    response.complete(value);
                  }

                  @Override
                  public void onError(Throwable t) {
                    response.completeExceptionally(t);
                  }

                  @Override
                  public void onCompleted() {}
                });
    requests.onNext(ServerReflectionRequest.newBuilder().setListServices("").build());
    List<String> names = new ArrayList<>();
    response
        .get(10, TimeUnit.SECONDS)
        .getListServicesResponse()
        .getServiceList()
        .forEach(s -> names.add(s.getName()));
    requests.onCompleted();
    return names;
  }

  private static EncryptStreamRequest item(String reference) {
    return EncryptStreamRequest.newBuilder()
        .setReference(reference)
        .setKeyName("capped")
        .setPlaintext(ByteString.copyFromUtf8("item"))
        .build();
  }

  /** A stream's first answer, the references of all, and its end. */
  private static final class Answers implements StreamObserver<EncryptStreamResponse> {
    final CompletableFuture<EncryptStreamResponse> first = new CompletableFuture<>();
    final CompletableFuture<Void> ended = new CompletableFuture<>();
    private final List<EncryptStreamResponse> all = new CopyOnWriteArrayList<>();

    @Override
    public void onNext(EncryptStreamResponse value) {
      all.add(value);
      first.complete(value);
    }

    List<String> references() {
      return all.stream().map(answer -> answer.getResult().getReference()).toList();
    }

    long errors() {
      return all.stream().filter(answer -> answer.getResult().hasError()).count();
    }

    @Override
    public void onError(Throwable t) {
      first.completeExceptionally(t);
      ended.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      ended.complete(null);
    }
  }

  /** A plaintext channel to the server's loopback port. */
  private static final class Channel implements AutoCloseable {
    final ManagedChannel managed;

    Channel(int port) {
      managed =
          Grpc.newChannelBuilderForAddress("127.0.0.1", port, InsecureChannelCredentials.create())
              .maxInboundMessageSize(8 * MAX_MESSAGE)
              .build();
    }

    @Override
    public void close() throws InterruptedException {
      managed.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}

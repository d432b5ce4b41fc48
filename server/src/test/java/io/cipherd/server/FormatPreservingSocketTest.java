package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptFormattedBatchRequest;
import io.cipherd.api.v1.DecryptFormattedRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.EncryptFormattedRequest;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchItem;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.MaskFormattedRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptFormattedBatchRequest;
import io.cipherd.api.v1.ReEncryptFormattedRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.api.StreamRecorder;
import io.cipherd.server.cli.ServerConfig;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every FormatPreservingService RPC over a real port, as a client sends it: a card-number key's
 * values encrypted, decrypted, masked, rotated and re-encrypted, unary and batch; the service's
 * health, and /metrics labelling FF1 work with mode {@code ff1}; the streams' flow control over
 * 10,000 items with a reader that pauses, and a stream broken by a drain resumed on another server
 * after its last reference.
 */
class FormatPreservingSocketTest {
  private static final ByteString COLUMN = ByteString.copyFromUtf8("payments.pan");
  private static final String CARD = "4242 4242 4242 4242";

  @TempDir Path dataDir;

  @Test
  void everyRpc_overARealPort() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ true)) {
      ManagedChannel channel = TestServers.channel(server);
      try {
        assertThat(
                HealthGrpc.newBlockingStub(channel)
                    .check(
                        HealthCheckRequest.newBuilder()
                            .setService("cipherd.v1.FormatPreservingService")
                            .build())
                    .getStatus())
            .isEqualTo(ServingStatus.SERVING);
        var admin = KeyAdminServiceGrpc.newBlockingStub(channel);
        var fpe = FormatPreservingServiceGrpc.newBlockingStub(channel);
        admin.createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName("pans")
                .setMode(Mode.MODE_FF1)
                .setFpeFormat(
                    FpeFormat.newBuilder()
                        .setTemplate(FpeTemplate.FPE_TEMPLATE_CARD_NUMBER)
                        .setAcceptSmallDomain(true))
                .build());

        var encrypted =
            fpe.encryptFormatted(
                EncryptFormattedRequest.newBuilder()
                    .setKeyName("pans")
                    .setValue(CARD)
                    .setContext(COLUMN)
                    .build());
        assertThat(encrypted.getValue())
            .startsWith("4242 42")
            .endsWith(" 4242")
            .isNotEqualTo(CARD)
            .hasSameSizeAs(CARD);
        assertThat(
                fpe.decryptFormatted(
                        DecryptFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue(encrypted.getValue())
                            .setContext(COLUMN)
                            .setKeyVersion(encrypted.getKeyVersion())
                            .build())
                    .getValue())
            .isEqualTo(CARD);
        assertThat(
                fpe.maskFormatted(
                        MaskFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue(encrypted.getValue())
                            .setContext(COLUMN)
                            .setKeyVersion(1)
                            .build())
                    .getMasked())
            .isEqualTo("•••• •••• •••• 4242");

        var batch =
            fpe.encryptFormattedBatch(
                    EncryptFormattedBatchRequest.newBuilder()
                        .setKeyName("pans")
                        .setContext(COLUMN)
                        .addItems(EncryptFormattedBatchItem.newBuilder().setValue(CARD))
                        .addItems(
                            EncryptFormattedBatchItem.newBuilder().setValue("5555555555554444"))
                        .build())
                .getResultsList();
        assertThat(batch).extracting(FormattedBatchResult::getKeyVersion).containsExactly(1, 1);
        assertThat(
                fpe.decryptFormattedBatch(
                        DecryptFormattedBatchRequest.newBuilder()
                            .setKeyName("pans")
                            .setContext(COLUMN)
                            .setKeyVersion(1)
                            .addItems(
                                FormattedBatchItem.newBuilder().setValue(batch.get(1).getValue()))
                            .build())
                    .getResults(0)
                    .getValue())
            .isEqualTo("5555555555554444");

        admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("pans").build());
        var moved =
            fpe.reEncryptFormatted(
                ReEncryptFormattedRequest.newBuilder()
                    .setKeyName("pans")
                    .setValue(encrypted.getValue())
                    .setContext(COLUMN)
                    .setKeyVersion(1)
                    .build());
        assertThat(moved.getKeyVersion()).isEqualTo(2);
        var movedBatch =
            fpe.reEncryptFormattedBatch(
                    ReEncryptFormattedBatchRequest.newBuilder()
                        .setKeyName("pans")
                        .setContext(COLUMN)
                        .setKeyVersion(1)
                        .addItems(FormattedBatchItem.newBuilder().setValue(batch.get(0).getValue()))
                        .build())
                .getResults(0);
        assertThat(movedBatch.getValue()).isEqualTo(moved.getValue());
        assertThat(movedBatch.getSourceKeyVersion()).isEqualTo(1);

        StatusRuntimeException refused =
            catchThrowableOfType(
                StatusRuntimeException.class,
                () ->
                    fpe.encryptFormatted(
                        EncryptFormattedRequest.newBuilder()
                            .setKeyName("pans")
                            .setValue("4242 4242 4242 424x")
                            .build()));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(refused.getStatus().getDescription())
            .contains("character 19")
            .doesNotContain("4242");

        String metrics = TestServers.get(server, "/metrics").body();
        assertThat(metrics).containsPattern("key=\"pans\"[^}]*mode=\"ff1\"");
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * EncryptFormattedStream of 10,000 items over a real port, each item a kilobyte (its context) so
   * that the transports' windows hold a few hundred, not the stream: the client sends only when the
   * call is ready and stops reading answers for two seconds; meanwhile it can send only what the
   * server's request window and the transports' buffers take, the server reading no further ahead
   * than the client reads. Every item is answered, in order, and the stream metrics name the
   * method.
   */
  @Test
  void encryptFormattedStream_tenThousandItems_aPausedReaderHoldsTheSenderBack() throws Exception {
    try (CipherdServer server = TestServers.start(dataDir, /* metricsKeyNames= */ false)) {
      ManagedChannel channel =
          NettyChannelBuilder.forAddress("127.0.0.1", server.port())
              .usePlaintext()
              .flowControlWindow(64 * 1024)
              .build();
      try {
        createDigits(channel, "ids");
        PausingReader reader = new PausingReader(10_000, 2_000);
        FormatPreservingServiceGrpc.newStub(channel).encryptFormattedStream(reader);
        reader.startSending();
        reader.done.get(300, TimeUnit.SECONDS);

        assertThat(reader.received.get()).isEqualTo(10_000);
        assertThat(reader.outOfOrder.get()).as("answers out of request order").isZero();
        assertThat(reader.errors.get()).as("items that failed").isZero();
        System.out.printf(
            "fpe stream flow control: %d of the %d items left were sent during the reader's 2 s"
                + " pause%n",
            reader.sentWhilePaused, 10_000 - 2_000);
        // None at all is possible on a busy machine: the windows were already full when the reader
        // paused. What must not happen is the server reading on without the reader.
        assertThat(reader.sentWhilePaused)
            .as("items sent while the reader paused, of the 8,000 left")
            .isBetween(0, 4_000);
        assertThat(TestServers.get(server, "/metrics").body())
            .contains("cipherd_streams_open{method=\"EncryptFormattedStream\"}");
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * A server's drain ends an open EncryptFormattedStream with UNAVAILABLE after answering every
   * item it received, in order without a gap; the client resumes after the last reference it got on
   * a new server over the same key store, and every item is answered exactly once, the first
   * server's and the second's ciphertexts alike.
   */
  @Test
  void encryptFormattedStream_brokenByADrain_resumesAfterTheLastReference() throws Exception {
    int items = 2_000;
    List<EncryptFormattedStreamResponse> all = new ArrayList<>();
    ServerConfig config = TestServers.config(dataDir).shutdownGrace(Duration.ofSeconds(60)).build();
    CipherdServer first = TestServers.start(config, TestServers.services(config).build());
    boolean closed = false;
    try {
      ManagedChannel channel = TestServers.channel(first);
      try {
        createDigits(channel, "ids");
        StreamRecorder<EncryptFormattedStreamResponse> answers = new StreamRecorder<>();
        StreamObserver<EncryptFormattedStreamRequest> requests =
            FormatPreservingServiceGrpc.newStub(channel).encryptFormattedStream(answers);
        for (int i = 0; i < 50; i++) {
          requests.onNext(item(i));
        }
        awaitTrue(() -> !answers.values().isEmpty());
        for (int i = 50; i < items; i++) {
          requests.onNext(item(i));
        }
        first.close();
        closed = true;
        StatusRuntimeException ended =
            catchThrowableOfType(StatusRuntimeException.class, () -> rethrow(answers));
        assertThat(ended.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(ended.getStatus().getDescription())
            .contains("resume after the last reference received");
        all.addAll(answers.values());
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    } finally {
      if (!closed) {
        first.close();
      }
    }
    int answered = all.size();
    // At least the first item; how many of the first 50 the server had taken in by the drain
    // depends on flow control (it asks for 16 at a time), and a busy machine answered 48 of them.
    assertThat(answered).isBetween(1, items);
    for (int i = 0; i < answered; i++) {
      assertThat(all.get(i).getResult().getReference()).isEqualTo(Integer.toString(i));
    }

    ServerConfig again = TestServers.config(dataDir).build();
    try (CipherdServer second = TestServers.start(again, TestServers.services(again).build())) {
      ManagedChannel channel = TestServers.channel(second);
      try {
        var fpe = FormatPreservingServiceGrpc.newStub(channel);
        StreamRecorder<EncryptFormattedStreamResponse> answers = new StreamRecorder<>();
        StreamObserver<EncryptFormattedStreamRequest> requests =
            fpe.encryptFormattedStream(answers);
        int resumeAt = Integer.parseInt(all.get(answered - 1).getResult().getReference()) + 1;
        for (int i = resumeAt; i < items; i++) {
          requests.onNext(item(i));
        }
        requests.onCompleted();
        all.addAll(answers.awaitValues(120));

        assertThat(all).hasSize(items);
        for (int i = 0; i < items; i++) {
          FormattedBatchResult result = all.get(i).getResult();
          assertThat(result.getReference()).isEqualTo(Integer.toString(i));
          assertThat(result.hasError()).as("item %d: %s", i, result.getError()).isFalse();
        }
        // Deterministic under one version: the first server's answers are what the second makes.
        StreamRecorder<DecryptFormattedStreamResponse> decrypted = new StreamRecorder<>();
        StreamObserver<DecryptFormattedStreamRequest> back = fpe.decryptFormattedStream(decrypted);
        for (int i : new int[] {0, answered - 1, answered, items - 1}) {
          back.onNext(
              DecryptFormattedStreamRequest.newBuilder()
                  .setReference(Integer.toString(i))
                  .setKeyName("ids")
                  .setValue(all.get(i).getResult().getValue())
                  .setContext(COLUMN)
                  .setKeyVersion(1)
                  .build());
        }
        back.onCompleted();
        assertThat(decrypted.awaitValues(30))
            .extracting(response -> response.getResult().getValue())
            .containsExactly(value(0), value(answered - 1), value(answered), value(items - 1));
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static void createDigits(ManagedChannel channel, String name) {
    KeyAdminServiceGrpc.newBlockingStub(channel)
        .createKey(
            CreateKeyRequest.newBuilder()
                .setKeyName(name)
                .setMode(Mode.MODE_FF1)
                .setFpeFormat(FpeFormat.newBuilder().setTemplate(FpeTemplate.FPE_TEMPLATE_DIGITS))
                .build());
  }

  /** Item {@code n}: a 16-digit value made from {@code n}, under the column's context. */
  private static EncryptFormattedStreamRequest item(int n) {
    return EncryptFormattedStreamRequest.newBuilder()
        .setReference(Integer.toString(n))
        .setKeyName("ids")
        .setValue(value(n))
        .setContext(COLUMN)
        .build();
  }

  private static String value(int n) {
    return String.format("4%015d", n);
  }

  private static void rethrow(StreamRecorder<?> answers) throws Throwable {
    try {
      answers.awaitValues(30);
    } catch (ExecutionException e) {
      throw e.getCause();
    }
  }

  private static void awaitTrue(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 30 s");
      }
      Thread.sleep(5);
    }
  }

  /**
   * Sends each item only when the call is ready, from its own thread, with a kilobyte of context;
   * reads answers one at a time and stops reading for two seconds after {@code pauseAt} of them.
   */
  private static final class PausingReader
      implements ClientResponseObserver<
          EncryptFormattedStreamRequest, EncryptFormattedStreamResponse> {
    private static final ByteString KILOBYTE_CONTEXT = ByteString.copyFrom(new byte[1000]);

    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final AtomicInteger outOfOrder = new AtomicInteger();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    volatile int sentWhilePaused;
    private final int items;
    private final int pauseAt;
    private ClientCallStreamObserver<EncryptFormattedStreamRequest> requests;
    private int sent;

    PausingReader(int items, int pauseAt) {
      this.items = items;
      this.pauseAt = pauseAt;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<EncryptFormattedStreamRequest> stream) {
      requests = stream;
      stream.disableAutoRequestWithInitial(1);
    }

    void startSending() {
      Thread sender =
          new Thread(
              () -> {
                try {
                  send();
                } catch (RuntimeException e) {
                  done.completeExceptionally(e);
                }
              },
              "fpe-stream-sender");
      sender.setDaemon(true);
      sender.start();
    }

    /** The call is not thread-safe: every use of {@code requests} holds this object's lock. */
    private void send() {
      while (!done.isDone()) {
        synchronized (this) {
          if (sent == items) {
            requests.onCompleted();
            return;
          }
          if (requests.isReady()) {
            requests.onNext(item(sent).toBuilder().setContext(KILOBYTE_CONTEXT).build());
            sent++;
            continue;
          }
        }
        sleepQuietly(1);
      }
    }

    @Override
    public void onNext(EncryptFormattedStreamResponse response) {
      int n = received.getAndIncrement();
      if (!response.getResult().getReference().equals(Integer.toString(n))) {
        outOfOrder.incrementAndGet();
      }
      if (response.getResult().hasError()) {
        errors.incrementAndGet();
      }
      if (n == pauseAt) {
        int before;
        synchronized (this) {
          before = sent;
        }
        sleepQuietly(2000);
        synchronized (this) {
          sentWhilePaused = sent - before;
        }
      }
      synchronized (this) {
        requests.request(1);
      }
    }

    @Override
    public void onError(Throwable t) {
      done.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {
      done.complete(null);
    }
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * EncryptStream and DecryptStream keep memory bounded by flow control: a server in its own JVM with
 * a 48 MiB heap encrypts a stream of 768 MiB, sixteen times its heap, and stops reading while its
 * client stops reading answers.
 */
class StreamMemoryTest {
  private static final int ITEM_BYTES = 256 * 1024;
  private static final int ITEMS = 3072;
  private static final String HEAP = "-Xmx48m";

  @TempDir Path dataDir;
  private Process server;
  private ManagedChannel channel;
  private Path log;

  @BeforeEach
  void startServerInASmallJvm() throws Exception {
    int port = freePort();
    log = dataDir.resolve("server.log");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder =
        new ProcessBuilder(
                java,
                HEAP,
                "-XX:MaxDirectMemorySize=64m",
                "-XX:+ExitOnOutOfMemoryError",
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                System.getProperty("java.class.path"),
                "io.cipherd.server.Main",
                "--port",
                Integer.toString(port),
                "--http-port",
                Integer.toString(freePort()),
                "--data-dir",
                dataDir.resolve("keys").toString(),
                "--demo-key",
                "bulk",
                "--max-message-bytes",
                Integer.toString(2 * ITEM_BYTES))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("CIPHERD_KEYSTORE_PASSWORD", "stream-memory-test");
    server = builder.start();
    channel =
        NettyChannelBuilder.forAddress("127.0.0.1", port)
            .usePlaintext()
            .maxInboundMessageSize(4 * ITEM_BYTES)
            .build();
    awaitServing();
  }

  @AfterEach
  void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.destroy();
    server.waitFor(20, TimeUnit.SECONDS);
    server.destroyForcibly();
  }

  @Test
  void encryptStream_ofSixteenHeaps_withAPausedReader_staysWithinTheHeap() throws Exception {
    CryptoServiceGrpc.CryptoServiceStub crypto = CryptoServiceGrpc.newStub(channel);
    SlowReader reader = new SlowReader();
    crypto.encryptStream(reader);
    // Only once the call has started: isReady() before that is not defined.
    reader.startSending();

    reader.awaitDone(300);

    assertThat(reader.errors.get()).as("items that failed").isZero();
    assertThat(reader.received.get()).isEqualTo(ITEMS);
    assertThat(reader.outOfOrder.get()).as("answers out of request order").isZero();
    // While the reader paused, the client could only send what flow control let through: the
    // server's request window and the transports' buffers, a few MiB, not the rest of the stream.
    System.out.printf(
        "stream memory: %d items of %d KiB through a %s server; %d sent during the reader's 2 s pause%n",
        ITEMS, ITEM_BYTES / 1024, HEAP, reader.sentWhilePaused);
    // None at all is possible too: on a busy machine the client may have filled the window before
    // the pause began.
    assertThat(reader.sentWhilePaused).as("items sent during the 2 s pause").isBetween(0, 64);
    assertThat(server.isAlive()).as("server alive (log: %s)", Files.readString(log)).isTrue();

    // And back: the samples decrypt through DecryptStream to what was sent.
    StreamRecorder<DecryptStreamResponse> decrypted = new StreamRecorder<>();
    var requests = crypto.decryptStream(decrypted);
    for (int i = 0; i < reader.samples.size(); i++) {
      requests.onNext(
          DecryptStreamRequest.newBuilder()
              .setReference("s" + i)
              .setCiphertext(reader.samples.get(i))
              .build());
    }
    requests.onCompleted();
    List<DecryptStreamResponse> answers = decrypted.awaitValues(60);
    assertThat(answers).hasSize(reader.samples.size());
    for (int i = 0; i < answers.size(); i++) {
      assertThat(answers.get(i).getResult().getReference()).isEqualTo("s" + i);
      assertThat(answers.get(i).getResult().getPlaintext()).isEqualTo(plaintext(i * 512));
    }
  }

  /**
   * Sends every item only when the call is ready (as a well-behaved client must), from its own
   * thread so sending goes on while reading stops; reads answers one at a time, and stops reading
   * for two seconds halfway.
   */
  private static final class SlowReader
      implements ClientResponseObserver<EncryptStreamRequest, EncryptStreamResponse> {
    final AtomicInteger received = new AtomicInteger();
    final AtomicInteger errors = new AtomicInteger();
    final AtomicInteger outOfOrder = new AtomicInteger();
    final List<String> samples = new ArrayList<>();
    final CompletableFuture<Void> done = new CompletableFuture<>();
    final AtomicLong pausedAt = new AtomicLong(-1);
    volatile int sentWhilePaused;
    private ClientCallStreamObserver<EncryptStreamRequest> requests;
    private int sent;

    @Override
    public void beforeStart(ClientCallStreamObserver<EncryptStreamRequest> stream) {
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
                  // A sender that dies must fail the test at once, not leave it waiting for
                  // answers.
                  done.completeExceptionally(e);
                }
              },
              "stream-sender");
      sender.setDaemon(true);
      sender.start();
    }

    /**
     * The call's methods are not thread-safe: every use of {@code requests} holds this object's
     * lock.
     */
    private void send() {
      while (!done.isDone()) {
        synchronized (this) {
          if (sent == ITEMS) {
            requests.onCompleted();
            return;
          }
          if (requests.isReady()) {
            requests.onNext(
                EncryptStreamRequest.newBuilder()
                    .setReference(Integer.toString(sent))
                    .setKeyName("bulk")
                    .setPlaintext(plaintext(sent))
                    .build());
            sent++;
            continue;
          }
        }
        sleep(1);
      }
    }

    @Override
    public void onNext(EncryptStreamResponse response) {
      int n = received.getAndIncrement();
      if (!response.getResult().getReference().equals(Integer.toString(n))) {
        outOfOrder.incrementAndGet();
      }
      if (response.getResult().hasError()) {
        errors.incrementAndGet();
      } else if (n % 512 == 0) {
        samples.add(response.getResult().getCiphertext());
      }
      if (n == ITEMS / 2) {
        int before;
        synchronized (this) {
          before = sent;
        }
        sleep(2000);
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

    void awaitDone(long seconds) throws Exception {
      done.get(seconds, TimeUnit.SECONDS);
    }
  }

  /** Item {@code n}'s plaintext: ITEM_BYTES bytes that differ per item, made again to check. */
  private static ByteString plaintext(int n) {
    byte[] bytes = new byte[ITEM_BYTES];
    Arrays.fill(bytes, (byte) n);
    bytes[0] = (byte) (n >>> 8);
    return ByteString.copyFrom(bytes);
  }

  private void awaitServing() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        HealthGrpc.newBlockingStub(channel)
            .withDeadlineAfter(2, TimeUnit.SECONDS)
            .check(HealthCheckRequest.getDefaultInstance());
        return;
      } catch (RuntimeException notYet) {
        if (!server.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("server did not start: " + Files.readString(log), notYet);
        }
        Thread.sleep(200);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}

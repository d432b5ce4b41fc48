package io.cipherd.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.cli.ServerConfig;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Throws malformed and abusive traffic at a running server over a real socket, then checks that it
 * still answers a well-behaved client correctly and that its memory stays bounded.
 */
class HostileInputTest {
  private static final int MAX_MESSAGE = 256 * 1024;
  private static final int MAX_BATCH = 512;

  @TempDir static Path dataDir;
  private static CipherdServer server;
  private static ManagedChannel channel;
  private static CryptoServiceGrpc.CryptoServiceBlockingStub crypto;

  @BeforeAll
  static void start() throws Exception {
    ServerConfig config =
        TestServers.config(dataDir)
            .maxInboundMessageBytes(MAX_MESSAGE)
            .limits(new RequestLimits(MAX_BATCH))
            .blockingQueue(1000)
            .build();
    server = TestServers.start(config, TestServers.services(config).build());
    channel = newChannel();
    crypto = CryptoServiceGrpc.newBlockingStub(channel);
    KeyAdminServiceGrpc.newBlockingStub(channel)
        .createKey(CreateKeyRequest.newBuilder().setKeyName("victim").build());
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
  }

  @Test
  void truncatedAndWronglyTypedMessages_areInvalidArgument() {
    byte[] valid =
        EncryptRequest.newBuilder()
            .setKeyName("victim")
            .setPlaintext(ByteString.copyFromUtf8("0123456789abcdef"))
            .build()
            .toByteArray();
    // Bytes that do not parse: the status names the message type and protobuf's reason.
    List<byte[]> unparseable =
        List.of(
            Arrays.copyOf(valid, valid.length - 3), // truncated in the middle of a field
            new byte[] {
              0x0a, (byte) 0xff, (byte) 0xff, 0x7f
            }, // length prefix far beyond the message
            new byte[] {0x0a, 0x02, (byte) 0xc3, 0x28}, // key_name with invalid UTF-8
            new byte[] {0x7f, 0x7f, 0x7f, 0x7f}); // garbage tags
    for (byte[] message : unparseable) {
      Status status = refusal(message);
      assertThat(status.getCode()).as("%s", status).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(status.getDescription())
          .startsWith("request is not a valid cipherd.v1.EncryptRequest message");
    }
    // Field 1 (key_name) sent as a varint: protobuf keeps it as an unknown field, so the request
    // parses without a key name, and validation says so.
    Status wrongType = refusal(new byte[] {0x08, (byte) 0x96, 0x01});
    assertThat(wrongType.getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(wrongType.getDescription()).isEqualTo("key_name is required");
    assertStillServing();
  }

  @Test
  void oversizedMessagesAndHugeBatches_areRefused() {
    StatusRuntimeException tooBig =
        catchThrowableOfType(
            StatusRuntimeException.class,
            () ->
                crypto.encrypt(
                    EncryptRequest.newBuilder()
                        .setKeyName("victim")
                        .setPlaintext(ByteString.copyFrom(new byte[MAX_MESSAGE]))
                        .build()));
    assertThat(tooBig.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);

    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName("victim");
    for (int i = 0; i < 10 * MAX_BATCH; i++) {
      batch.addItems(EncryptBatchItem.getDefaultInstance());
    }
    StatusRuntimeException tooMany =
        catchThrowableOfType(
            StatusRuntimeException.class, () -> crypto.encryptBatch(batch.build()));
    assertThat(tooMany.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertStillServing();
  }

  @Test
  void zeroDeadlines_failAtTheClientAndLeaveTheServerAlone() {
    for (int i = 0; i < 200; i++) {
      StatusRuntimeException e =
          catchThrowableOfType(
              StatusRuntimeException.class,
              () ->
                  crypto
                      .withDeadlineAfter(0, TimeUnit.NANOSECONDS)
                      .encrypt(EncryptRequest.newBuilder().setKeyName("victim").build()));
      assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    }
    assertStillServing();
  }

  @Test
  void clientsThatVanishMidStream_doNotHurtOthers() throws Exception {
    String ciphertext = encrypt("vanishing");
    for (int round = 0; round < 20; round++) {
      ManagedChannel doomed = newChannel();
      CountDownLatch firstAnswer = new CountDownLatch(1);
      StreamObserver<ReEncryptStreamRequest> requests =
          CryptoServiceGrpc.newStub(doomed)
              .reEncryptStream(
                  new StreamObserver<>() {
                    @Override
                    public void onNext(ReEncryptStreamResponse value) {
                      firstAnswer.countDown();
                    }

                    @Override
                    public void onError(Throwable t) {}

                    @Override
                    public void onCompleted() {}
                  });
      for (int i = 0; i < 50; i++) {
        requests.onNext(ReEncryptStreamRequest.newBuilder().setCiphertext(ciphertext).build());
      }
      assertThat(firstAnswer.await(10, TimeUnit.SECONDS)).isTrue();
      doomed.shutdownNow(); // gone without half-closing the stream
    }
    assertStillServing();
  }

  @Test
  void tenThousandConcurrentCalls_allAnswered_andMemoryStaysBounded() throws Exception {
    long before = usedHeapAfterGc();
    List<ManagedChannel> channels = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      channels.add(newChannel());
    }
    int calls = 10_000;
    AtomicInteger ok = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(calls);
    for (int i = 0; i < calls; i++) {
      ByteString plaintext = ByteString.copyFromUtf8("concurrent " + i);
      CryptoServiceGrpc.newStub(channels.get(i % channels.size()))
          .encrypt(
              EncryptRequest.newBuilder().setKeyName("victim").setPlaintext(plaintext).build(),
              new StreamObserver<EncryptResponse>() {
                @Override
                public void onNext(EncryptResponse value) {
                  if (value.getCiphertext().startsWith("<victim/v1:gcm>")) {
                    ok.incrementAndGet();
                  }
                }

                @Override
                public void onError(Throwable t) {
                  failed.incrementAndGet();
                  done.countDown();
                }

                @Override
                public void onCompleted() {
                  done.countDown();
                }
              });
    }
    assertThat(done.await(120, TimeUnit.SECONDS)).as("every call answered").isTrue();
    for (ManagedChannel c : channels) {
      c.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    assertThat(failed.get()).isZero();
    assertThat(ok.get()).isEqualTo(calls);
    assertStillServing();
    long growth = usedHeapAfterGc() - before;
    assertThat(growth).as("heap growth after 10k calls, bytes").isLessThan(64L * 1024 * 1024);
  }

  private static void assertStillServing() {
    String ciphertext = encrypt("still here");
    assertThat(
            crypto
                .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                .getPlaintext()
                .toStringUtf8())
        .isEqualTo("still here");
  }

  private static String encrypt(String text) {
    return crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("victim")
                .setPlaintext(ByteString.copyFromUtf8(text))
                .build())
        .getCiphertext();
  }

  private static Status refusal(byte[] message) {
    StatusRuntimeException e =
        catchThrowableOfType(StatusRuntimeException.class, () -> callRaw(message));
    assertThat(e).as("a malformed message must fail").isNotNull();
    return e.getStatus();
  }

  /**
   * Sends {@code message} as the raw body of an Encrypt call, bypassing the client's own encoding.
   */
  private static byte[] callRaw(byte[] message) {
    MethodDescriptor<byte[], byte[]> raw =
        CryptoServiceGrpc.getEncryptMethod().toBuilder(RAW, RAW).build();
    return ClientCalls.blockingUnaryCall(channel, raw, CallOptions.DEFAULT, message);
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    Runtime runtime = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(100);
    }
    return runtime.totalMemory() - runtime.freeMemory();
  }

  private static ManagedChannel newChannel() {
    return Grpc.newChannelBuilderForAddress(
            "127.0.0.1", server.port(), InsecureChannelCredentials.create())
        .build();
  }

  private static final MethodDescriptor.Marshaller<byte[]> RAW =
      new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
          return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
          try {
            return stream.readAllBytes();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      };
}

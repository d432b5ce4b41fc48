package io.cipherd.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.subjects.CountingSubjectStore;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What an open item stream holds while it waits for its client, and how long it may wait. */
class ItemStreamTest {
  private static final int POOL_MAX = 4;

  @TempDir Path dataDir;

  @Test
  void idleStreams_moreThanThePoolHolds_leaveCiphersForAUnaryEncrypt() throws Exception {
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(
            dataDir,
            settings ->
                settings.cipherPools(
                    new CipherPoolConfig(POOL_MAX, POOL_MAX, Duration.ofMillis(200))))) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("idle").build());
      List<StreamObserver<EncryptStreamRequest>> streams = new ArrayList<>();
      for (int i = 0; i < POOL_MAX + 2; i++) {
        StreamRecorder<EncryptStreamResponse> answers = new StreamRecorder<>();
        StreamObserver<EncryptStreamRequest> requests = cipherd.cryptoAsync.encryptStream(answers);
        requests.onNext(
            EncryptStreamRequest.newBuilder()
                .setReference("s" + i)
                .setKeyName("idle")
                .setPlaintext(ByteString.copyFromUtf8("one item"))
                .build());
        awaitTrue(() -> answers.values().size() == 1, "stream " + i + " answered");
        assertThat(answers.values().get(0).getResult().hasError())
            .as("stream %d's item: %s", i, answers.values().get(0).getResult().getError())
            .isFalse();
        streams.add(requests);
      }
      assertThat(cipherd.services.streams().open("EncryptStream")).isEqualTo(POOL_MAX + 2);

      assertThat(
              cipherd
                  .crypto
                  .encrypt(
                      EncryptRequest.newBuilder()
                          .setKeyName("idle")
                          .setPlaintext(ByteString.copyFromUtf8("another caller"))
                          .build())
                  .getKeyVersion())
          .isEqualTo(1);
      GenericObjectPool<?> gcm = cipherd.services.cipherPools().pool(CipherMode.GCM);
      awaitTrue(() -> gcm.getNumActive() == 0, "the open, idle streams hold no cipher");

      streams.forEach(StreamObserver::onCompleted);
      awaitTrue(() -> cipherd.services.streams().open("EncryptStream") == 0, "every stream closed");
    }
  }

  @Test
  void stream_receivingNothingForTheIdleTimeout_isCancelledAfterAnsweringEveryItem()
      throws Exception {
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(
            dataDir, settings -> settings.streamIdleTimeout(Duration.ofMillis(200)))) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("quiet").build());
      StreamRecorder<EncryptStreamResponse> answers = new StreamRecorder<>();
      StreamObserver<EncryptStreamRequest> requests = cipherd.cryptoAsync.encryptStream(answers);
      for (int i = 0; i < 3; i++) {
        requests.onNext(
            EncryptStreamRequest.newBuilder()
                .setReference("q" + i)
                .setKeyName("quiet")
                .setPlaintext(ByteString.copyFromUtf8("item " + i))
                .build());
      }

      assertThatThrownBy(() -> answers.awaitValues(10))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> {
                assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED);
                assertThat(e.getStatus().getDescription()).startsWith("stream idle");
              });
      assertThat(answers.values())
          .extracting(answer -> answer.getResult().getReference())
          .containsExactly("q0", "q1", "q2");
      assertThat(answers.values()).noneMatch(answer -> answer.getResult().hasError());
      assertThat(cipherd.services.streams().closedIdle("EncryptStream")).isEqualTo(1);
      assertThat(cipherd.services.streams().open("EncryptStream")).isZero();
    }
  }

  /**
   * One scheduler thread times every stream: it returns quiet streams' ciphers and closes idle
   * streams. A stream whose item waits for a stalled subject store holds its lease all that time,
   * and the scheduler once waited for that lease to look whether it was quiet, so another stream's
   * idle close waited for the store too. Now the scheduler only tries the lease (busy: not quiet).
   */
  @Test
  void aStreamWaitingForAStalledStore_holdsUpNoOtherStreamsIdleClose() throws Exception {
    CountingSubjectStore store = new CountingSubjectStore(new MemorySubjectStore());
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(
            dataDir,
            settings -> settings.streamIdleTimeout(Duration.ofMillis(200)).subjectStore(store))) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("users").build());
      cipherd.crypto.encrypt(
          EncryptRequest.newBuilder()
              .setKeyName("users")
              .setSubject("stalled")
              .setPlaintext(ByteString.copyFromUtf8("made before the store stalls"))
              .build());
      cipherd.services.subjectKeys().forgetKey("users");
      store.latency(Duration.ofSeconds(3));

      // Stream A: a cached item (its lease then keeps ciphers, a look due in 10 ms), at once an
      // item whose subject only the stalled store knows.
      StreamRecorder<EncryptStreamResponse> a = new StreamRecorder<>();
      StreamObserver<EncryptStreamRequest> toA = cipherd.cryptoAsync.encryptStream(a);
      toA.onNext(item("a0", ""));
      toA.onNext(item("a1", "stalled"));
      Thread.sleep(100);

      // Stream B: one item, then nothing: idle after 200 ms.
      StreamRecorder<EncryptStreamResponse> b = new StreamRecorder<>();
      StreamObserver<EncryptStreamRequest> toB = cipherd.cryptoAsync.encryptStream(b);
      toB.onNext(item("b0", ""));
      long sent = System.nanoTime();
      assertThatThrownBy(() -> b.awaitValues(10))
          .cause()
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getDescription()).startsWith("stream idle"));
      long closedAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sent);

      assertThat(closedAfterMillis)
          .as(
              "B closed idle %d ms after its item; A's store answers after 3,000 ms",
              closedAfterMillis)
          .isLessThan(2_000);
      toA.onCompleted();
      assertThat(a.awaitValues(30))
          .extracting(answer -> answer.getResult().getCiphertext().substring(0, 8))
          .containsExactly("<users/v", "<users/s");
    }
  }

  /**
   * A client's cancel reaches the server on a transport thread (the direct executor), and closing
   * the stream's lease there waited for the lease's item, which may wait for a stalled store for
   * seconds: every other call on that thread waited too. Now the item closes the lease when done.
   */
  @Test
  void aCancelWhileAnItemWaitsForAStalledStore_returnsAtOnce_andTheLeaseIsStillClosed()
      throws Exception {
    CountingSubjectStore store = new CountingSubjectStore(new MemorySubjectStore());
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(dataDir, settings -> settings.subjectStore(store))) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("users").build());
      store.latency(Duration.ofSeconds(2));
      StreamRecorder<EncryptStreamResponse> answers = new StreamRecorder<>();
      var requests =
          (ClientCallStreamObserver<EncryptStreamRequest>)
              cipherd.cryptoAsync.encryptStream(answers);
      requests.onNext(item("a0", ""));
      requests.onNext(item("a1", "stalled"));
      Thread.sleep(200);

      long start = System.nanoTime();
      requests.cancel("the client gives up", null);
      long cancelMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

      assertThat(cancelMillis)
          .as("the cancel took %d ms; the item waits 4,000 ms for the store", cancelMillis)
          .isLessThan(1_000);
      GenericObjectPool<?> gcm = cipherd.services.cipherPools().pool(CipherMode.GCM);
      awaitTrue(() -> gcm.getNumActive() == 0, "the item, once done, returned the lease's ciphers");
      awaitTrue(
          () -> cipherd.services.streams().open("EncryptStream") == 0, "the stream is closed");
    }
  }

  private static EncryptStreamRequest item(String reference, String subject) {
    return EncryptStreamRequest.newBuilder()
        .setReference(reference)
        .setKeyName("users")
        .setSubject(subject)
        .setPlaintext(ByteString.copyFromUtf8("item " + reference))
        .build();
  }

  private static void awaitTrue(BooleanSupplier condition, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 10 s: " + what);
      }
      Thread.sleep(5);
    }
  }
}

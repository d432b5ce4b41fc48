package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.GenerateDataKeyRequest;
import io.cipherd.api.v1.GenerateDataKeyResponse;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.ReEncryptResponse;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.TestServers;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.errors.InvalidArgumentException;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever the server encrypts comes back: at the largest plaintext, with a large context and
 * reference, every shape of Decrypt and ReEncrypt takes the ciphertext over a real socket at the
 * default 4 MiB message size (the clients' default receive size too), and one byte more is refused
 * with INVALID_ARGUMENT before anything is encrypted.
 */
class PlaintextLimitTest {
  private static final int MAX_MESSAGE = ServerConfig.DEFAULT_MAX_MESSAGE_BYTES;

  /** The longest key name, in the mode that expands most: the nearest to the bound. */
  private static final String KEY = "x".repeat(64);

  /** A context and a reference far larger than any column's, to show they count. */
  private static final ByteString CONTEXT = filled(64 * 1024, 'c');

  private static final String REFERENCE = "r".repeat(1000);

  private static final PlaintextLimit LIMIT = new PlaintextLimit(MAX_MESSAGE);

  @TempDir static Path dataDir;

  private static CipherdServer server;
  private static ManagedChannel channel;
  private static CryptoServiceGrpc.CryptoServiceBlockingStub crypto;

  @BeforeAll
  static void start() throws Exception {
    ServerConfig config =
        ServerConfig.builder()
            .port(0)
            .dataDir(dataDir)
            .keyStorePassword(TestServers.PASSWORD)
            .blockingThreads(2)
            .shutdownGrace(Duration.ofSeconds(2))
            .build();
    server = TestServers.start(config, TestServers.services(config).build());
    // grpc-java's default receive size, 4 MiB, like the Go client's.
    channel =
        Grpc.newChannelBuilderForAddress(
                "127.0.0.1", server.port(), InsecureChannelCredentials.create())
            .build();
    KeyAdminServiceGrpc.newBlockingStub(channel)
        .createKey(CreateKeyRequest.newBuilder().setKeyName(KEY).setMode(Mode.MODE_XGCM).build());
    crypto = CryptoServiceGrpc.newBlockingStub(channel).withDeadlineAfter(2, TimeUnit.MINUTES);
  }

  @AfterAll
  static void stop() throws Exception {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.close();
  }

  @Test
  void limit_isDerivedFromTheMessageSize() {
    // 3 * floor((4194304 - 256 - 96) / 4) - 40: the xgcm nonce and tag, the longest header, room
    // for the other fields.
    assertThat(LIMIT.maxPlaintext()).isEqualTo(3_145_424);
    assertThat(LIMIT.largest(CONTEXT.size())).isEqualTo(3_096_272);
    // Every mode expands a plaintext by 40 bytes at most, to base64 of 4/3 its length.
    for (int plaintext : new int[] {0, 1, 15, 16, 17, 1000, LIMIT.maxPlaintext()}) {
      assertThat(PlaintextLimit.ciphertextBound(plaintext))
          .isEqualTo(96 + (plaintext + 40 + 2) / 3 * 4);
    }
    assertThat(new PlaintextLimit(64 * 1024).maxPlaintext()).isEqualTo(48_848);
  }

  @Test
  void encrypt_atTheLimit_comesBackThroughEveryShape_andOneByteMoreIsRefused() throws Exception {
    int largest = LIMIT.largest(CONTEXT.size());
    String ciphertext =
        crypto
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(KEY)
                    .setPlaintext(filled(largest, 'p'))
                    .setContext(CONTEXT)
                    .build())
            .getCiphertext();
    // Within the room kept for other fields of the message limit: the bound is tight.
    DecryptRequest decrypt =
        DecryptRequest.newBuilder()
            .setCiphertext(ciphertext)
            .setContext(CONTEXT)
            .setExpectedKey(KEY)
            .build();
    assertThat(decrypt.getSerializedSize())
        .isBetween(MAX_MESSAGE - PlaintextLimit.OTHER_FIELDS, MAX_MESSAGE);
    comesBack(ciphertext, largest, "");

    assertInvalid(
        () ->
            crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(KEY)
                    .setPlaintext(filled(largest + 1, 'p'))
                    .setContext(CONTEXT)
                    .build()),
        "plaintext is " + (largest + 1) + " bytes",
        "the largest this server encrypts with this context (65536 bytes) is " + largest,
        "GenerateDataKey");
  }

  @Test
  void encrypt_withoutContext_atTheLimit_andOneByteMore() {
    int largest = LIMIT.maxPlaintext();
    String ciphertext =
        crypto
            .encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(KEY)
                    .setPlaintext(filled(largest, 'p'))
                    .build())
            .getCiphertext();
    assertThat(
            crypto
                .decrypt(
                    DecryptRequest.newBuilder()
                        .setCiphertext(ciphertext)
                        .setExpectedKey(KEY)
                        .build())
                .getPlaintext()
                .size())
        .isEqualTo(largest);
    assertInvalid(
        () ->
            crypto.encrypt(
                EncryptRequest.newBuilder()
                    .setKeyName(KEY)
                    .setPlaintext(filled(largest + 1, 'p'))
                    .build()),
        "the largest this server encrypts is " + largest + " bytes");
  }

  @Test
  void encryptBatchItem_atTheLimit_comesBack_andOneByteMoreIsTheItemsError() throws Exception {
    int largest = LIMIT.largest(CONTEXT.size() + REFERENCE.length());
    EncryptBatchResult fits = encryptBatchItem(largest);
    assertThat(fits.hasError()).isFalse();
    comesBack(fits.getCiphertext(), largest, REFERENCE);

    EncryptBatchResult over = encryptBatchItem(largest + 1);
    assertThat(over.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(over.getError().getReason()).isEqualTo("INVALID_ARGUMENT");
    assertThat(over.getError().getMessage()).startsWith("plaintext is " + (largest + 1) + " bytes");
  }

  @Test
  void encryptStreamItem_atTheLimit_comesBack_andOneByteMoreIsTheItemsError() throws Exception {
    int largest = LIMIT.largest(CONTEXT.size() + REFERENCE.length());
    List<EncryptStreamResponse> answers =
        stream(
            observer -> CryptoServiceGrpc.newStub(channel).encryptStream(observer),
            List.of(encryptStreamItem(largest), encryptStreamItem(largest + 1)));
    assertThat(answers).hasSize(2);
    EncryptBatchResult fits = answers.get(0).getResult();
    assertThat(fits.hasError()).isFalse();
    comesBack(fits.getCiphertext(), largest, REFERENCE);
    EncryptBatchResult over = answers.get(1).getResult();
    assertThat(over.getError().getReason()).isEqualTo("INVALID_ARGUMENT");
    assertThat(over.getError().getMessage()).startsWith("plaintext is " + (largest + 1) + " bytes");
  }

  @Test
  void generateDataKey_atTheLargestContext_unwraps_andOneByteMoreIsRefused() {
    int context = largestContextFor(32);
    GenerateDataKeyResponse dataKey =
        crypto.generateDataKey(
            GenerateDataKeyRequest.newBuilder()
                .setKeyName(KEY)
                .setContext(filled(context, 'c'))
                .build());
    assertThat(
            crypto
                .decrypt(
                    DecryptRequest.newBuilder()
                        .setCiphertext(dataKey.getWrappedKey())
                        .setContext(filled(context, 'c'))
                        .setExpectedKey(KEY)
                        .build())
                .getPlaintext())
        .isEqualTo(dataKey.getPlaintextKey());
    assertInvalid(
        () ->
            crypto.generateDataKey(
                GenerateDataKeyRequest.newBuilder()
                    .setKeyName(KEY)
                    .setContext(filled(context + 1, 'c'))
                    .build()),
        "plaintext is 32 bytes");
  }

  @Test
  void aReferenceOfMultiByteCharacters_countsItsExactUtf8Length_atTheEdge() {
    // 'é' is 2 bytes in UTF-8, under the 3 per character the quick pass assumes: at the edge the
    // exact length decides, for one item and for a batch.
    String reference = "é".repeat(10_000);
    int exact = 2 * reference.length();
    int context = CONTEXT.size();

    int alone = LIMIT.largest((long) context + exact);
    LIMIT.check(alone, context, reference);
    assertThatThrownBy(() -> LIMIT.check(alone + 1, context, reference))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("plaintext is " + (alone + 1) + " bytes");

    // Two items, the second empty: the largest first item whose batch still fits.
    long second = LIMIT.itemBound(0, 0, exact);
    int low = 0;
    int high = alone;
    while (low < high) {
      int middle = (low + high + 1) >>> 1;
      if (PlaintextLimit.BATCH_FIELDS + LIMIT.itemBound(middle, context, exact) + second
          <= MAX_MESSAGE) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    int edge = low;
    assertThat(edge).isLessThan(alone);
    LIMIT.checkBatch(twoItems(edge, context, reference));
    assertThatThrownBy(() -> LIMIT.checkBatch(twoItems(edge + 1, context, reference)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("batch of 2 items is too large");
  }

  private static PlaintextLimit.BatchItemSizes twoItems(int first, int context, String reference) {
    return new PlaintextLimit.BatchItemSizes() {
      @Override
      public int count() {
        return 2;
      }

      @Override
      public int plaintext(int i) {
        return i == 0 ? first : 0;
      }

      @Override
      public int context(int i) {
        return i == 0 ? context : 0;
      }

      @Override
      public String reference(int i) {
        return reference;
      }
    };
  }

  @Test
  void encryptBatch_whoseResultsWouldNotComeBackInOneBatch_isRefusedUpFront() {
    // Two items: the first with the large context and reference, the second as large as still
    // lets a DecryptBatch of both, with their contexts, fit.
    int first = 1_000_000;
    long firstBound = LIMIT.itemBound(first, CONTEXT.size(), REFERENCE.length());
    int second = 0;
    while (PlaintextLimit.BATCH_FIELDS
            + firstBound
            + LIMIT.itemBound(second + 1, CONTEXT.size(), REFERENCE.length())
        <= MAX_MESSAGE) {
      second++;
    }
    assertThat(second).isBetween(2_000_000, LIMIT.maxPlaintext());

    EncryptBatchResponse fits = crypto.encryptBatch(batch(first, second));
    assertThat(fits.getResultsList()).noneMatch(EncryptBatchResult::hasError);
    DecryptBatchRequest.Builder back = DecryptBatchRequest.newBuilder().setExpectedKey(KEY);
    ReEncryptBatchRequest.Builder rewrap = ReEncryptBatchRequest.newBuilder().setKeyName(KEY);
    for (EncryptBatchResult result : fits.getResultsList()) {
      back.addItemsBuilder()
          .setReference(result.getReference())
          .setCiphertext(result.getCiphertext())
          .setContext(CONTEXT)
          .setExpectedKey(KEY);
      rewrap
          .addItemsBuilder()
          .setReference(result.getReference())
          .setCiphertext(result.getCiphertext())
          .setContext(CONTEXT)
          .setExpectedKey(KEY);
    }
    assertThat(crypto.decryptBatch(back.build()).getResultsList())
        .extracting(r -> r.getPlaintext().size())
        .containsExactly(first, second);
    assertThat(crypto.reEncryptBatch(rewrap.build()).getResultsList())
        .noneMatch(ReEncryptBatchResult::hasError);

    int over = second + 1;
    assertInvalid(
        () -> crypto.encryptBatch(batch(first, over)),
        "batch of 2 items is too large",
        "the first 1 items fit");
  }

  /** Decrypt, ReEncrypt, and their batch and stream forms take {@code ciphertext} and answer. */
  private static void comesBack(String ciphertext, int plaintext, String reference)
      throws Exception {
    assertThat(
            crypto
                .decrypt(
                    DecryptRequest.newBuilder()
                        .setCiphertext(ciphertext)
                        .setContext(CONTEXT)
                        .setExpectedKey(KEY)
                        .build())
                .getPlaintext()
                .size())
        .isEqualTo(plaintext);
    ReEncryptResponse rewrapped =
        crypto.reEncrypt(
            ReEncryptRequest.newBuilder()
                .setCiphertext(ciphertext)
                .setContext(CONTEXT)
                .setKeyName(KEY)
                .setExpectedKey(KEY)
                .build());
    assertThat(rewrapped.getCiphertext()).isNotEqualTo(ciphertext);

    DecryptBatchResult decrypted =
        crypto
            .decryptBatch(
                DecryptBatchRequest.newBuilder()
                    .setExpectedKey(KEY)
                    .addItems(
                        DecryptBatchItem.newBuilder()
                            .setReference(reference)
                            .setCiphertext(rewrapped.getCiphertext())
                            .setContext(CONTEXT)
                            .setExpectedKey(KEY))
                    .build())
            .getResults(0);
    assertThat(decrypted.hasError()).isFalse();
    assertThat(decrypted.getPlaintext().size()).isEqualTo(plaintext);

    ReEncryptBatchResult batchRewrapped =
        crypto
            .reEncryptBatch(
                ReEncryptBatchRequest.newBuilder()
                    .setKeyName(KEY)
                    .setExpectedKey(KEY)
                    .addItems(
                        ReEncryptBatchItem.newBuilder()
                            .setReference(reference)
                            .setCiphertext(ciphertext)
                            .setContext(CONTEXT)
                            .setExpectedKey(KEY))
                    .build())
            .getResults(0);
    assertThat(batchRewrapped.hasError()).isFalse();

    List<DecryptStreamResponse> streamed =
        stream(
            observer -> CryptoServiceGrpc.newStub(channel).decryptStream(observer),
            List.of(
                DecryptStreamRequest.newBuilder()
                    .setReference(reference)
                    .setCiphertext(batchRewrapped.getCiphertext())
                    .setContext(CONTEXT)
                    .setExpectedKey(KEY)
                    .build()));
    assertThat(streamed.get(0).getResult().getPlaintext().size()).isEqualTo(plaintext);

    List<ReEncryptStreamResponse> rewrappedStream =
        stream(
            observer -> CryptoServiceGrpc.newStub(channel).reEncryptStream(observer),
            List.of(
                ReEncryptStreamRequest.newBuilder()
                    .setReference(reference)
                    .setCiphertext(ciphertext)
                    .setContext(CONTEXT)
                    .setKeyName(KEY)
                    .setExpectedKey(KEY)
                    .build()));
    assertThat(rewrappedStream.get(0).getResult().hasError()).isFalse();
    assertThat(rewrappedStream.get(0).getResult().getSourceKeyVersion()).isEqualTo(1);
  }

  private static EncryptBatchResult encryptBatchItem(int plaintext) {
    return crypto
        .encryptBatch(
            EncryptBatchRequest.newBuilder()
                .setKeyName(KEY)
                .addItems(
                    EncryptBatchItem.newBuilder()
                        .setReference(REFERENCE)
                        .setPlaintext(filled(plaintext, 'p'))
                        .setContext(CONTEXT))
                .build())
        .getResults(0);
  }

  private static EncryptStreamRequest encryptStreamItem(int plaintext) {
    return EncryptStreamRequest.newBuilder()
        .setReference(REFERENCE)
        .setKeyName(KEY)
        .setPlaintext(filled(plaintext, 'p'))
        .setContext(CONTEXT)
        .build();
  }

  private static EncryptBatchRequest batch(int first, int second) {
    EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName(KEY);
    for (int plaintext : new int[] {first, second}) {
      batch
          .addItemsBuilder()
          .setReference(REFERENCE)
          .setPlaintext(filled(plaintext, 'p'))
          .setContext(CONTEXT);
    }
    return batch.build();
  }

  /** The largest context a {@code plaintext}-byte plaintext may be bound to. */
  private static int largestContextFor(int plaintext) {
    int context = 0;
    while (LIMIT.largest(context + 1024) >= plaintext) {
      context += 1024;
    }
    while (LIMIT.largest(context + 1) >= plaintext) {
      context++;
    }
    return context;
  }

  private static <Q, R> List<R> stream(
      Function<StreamObserver<R>, StreamObserver<Q>> call, List<Q> requests) throws Exception {
    StreamRecorder<R> answers = new StreamRecorder<>();
    StreamObserver<Q> out = call.apply(answers);
    for (Q request : requests) {
      out.onNext(request);
    }
    out.onCompleted();
    return answers.awaitValues(60);
  }

  private static void assertInvalid(Runnable call, String... parts) {
    Status status = failsWith(Status.Code.INVALID_ARGUMENT, call::run);
    assertThat(status.getDescription()).contains(parts);
  }

  private static ByteString filled(int length, char c) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, (byte) c);
    return ByteString.copyFrom(bytes);
  }
}

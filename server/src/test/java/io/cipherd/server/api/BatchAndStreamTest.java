package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResponse;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResponse;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptBatchResponse;
import io.cipherd.api.v1.ReEncryptBatchResult;
import io.cipherd.api.v1.ReEncryptStreamRequest;
import io.cipherd.api.v1.ReEncryptStreamResponse;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.server.crypto.CipherMode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Batch and streaming RPCs: one result per item, in order, each with its own outcome. */
class BatchAndStreamTest {
  private static final int MAX_BATCH = 64;

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir, MAX_BATCH);
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("batch").build());
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("target").setMode(Mode.MODE_CHACHA).build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void encryptBatch_thenDecryptBatch_keepsOrderAndReferences() {
    EncryptBatchRequest.Builder request = EncryptBatchRequest.newBuilder().setKeyName("batch");
    for (int i = 0; i < MAX_BATCH; i++) {
      request.addItems(
          EncryptBatchItem.newBuilder()
              .setReference("ref-" + i)
              .setPlaintext(plaintext(i))
              .setContext(ByteString.copyFromUtf8("ctx-" + i)));
    }
    EncryptBatchResponse encrypted = cipherd.crypto.encryptBatch(request.build());
    assertThat(encrypted.getResultsCount()).isEqualTo(MAX_BATCH);

    DecryptBatchRequest.Builder decrypt = DecryptBatchRequest.newBuilder();
    for (int i = 0; i < MAX_BATCH; i++) {
      EncryptBatchResult result = encrypted.getResults(i);
      assertThat(result.getReference()).isEqualTo("ref-" + i);
      assertThat(result.getOutcomeCase()).isEqualTo(EncryptBatchResult.OutcomeCase.CIPHERTEXT);
      decrypt.addItems(
          DecryptBatchItem.newBuilder()
              .setReference("d-" + i)
              .setCiphertext(result.getCiphertext())
              .setContext(ByteString.copyFromUtf8("ctx-" + i)));
    }
    DecryptBatchResponse decrypted = cipherd.crypto.decryptBatch(decrypt.build());
    assertThat(cipherd.services.cipherPools().pool(CipherMode.GCM).getNumActive())
        .as("a batch returns the ciphers it leased")
        .isZero();
    for (int i = 0; i < MAX_BATCH; i++) {
      assertThat(decrypted.getResults(i).getReference()).isEqualTo("d-" + i);
      assertThat(decrypted.getResults(i).getPlaintext()).isEqualTo(plaintext(i));
      assertThat(decrypted.getResults(i).getKeyVersion()).isEqualTo(1);
    }
  }

  @Test
  void decryptBatch_mixedGoodAndBadItems_answersEachOnItsOwn() {
    String good = encryptOne("batch", "fine");
    rotateAndSetMinDecryption("target");
    DecryptBatchResponse response =
        cipherd.crypto.decryptBatch(
            DecryptBatchRequest.newBuilder()
                .addItems(item("ok-1", good))
                .addItems(item("garbage", "not a ciphertext"))
                .addItems(item("unknown-key", good.replace("<batch/", "<nosuchkey/")))
                .addItems(item("tampered", tamper(good)))
                .addItems(item("ok-2", good))
                .build());

    List<DecryptBatchResult> results = response.getResultsList();
    assertThat(results)
        .extracting(DecryptBatchResult::getReference)
        .containsExactly("ok-1", "garbage", "unknown-key", "tampered", "ok-2");
    assertThat(results.get(0).getPlaintext().toStringUtf8()).isEqualTo("fine");
    assertThat(results.get(1).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(results.get(2).getError().getCode()).isEqualTo(Status.Code.NOT_FOUND.value());
    assertThat(results.get(3).getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
    assertThat(results.get(3).getError().getMessage()).isEqualTo("decryption failed");
    assertThat(results.get(4).getPlaintext().toStringUtf8()).isEqualTo("fine");
  }

  @Test
  void encryptBatch_unknownKey_failsEveryItemButAnswersAll() {
    EncryptBatchResponse response =
        cipherd.crypto.encryptBatch(
            EncryptBatchRequest.newBuilder()
                .setKeyName("missing")
                .addItems(
                    EncryptBatchItem.newBuilder().setReference("a").setPlaintext(plaintext(1)))
                .addItems(
                    EncryptBatchItem.newBuilder().setReference("b").setPlaintext(plaintext(2)))
                .build());
    assertThat(response.getResultsList())
        .extracting(r -> r.getError().getCode())
        .containsExactly(Status.Code.NOT_FOUND.value(), Status.Code.NOT_FOUND.value());
  }

  @Test
  void batch_overTheItemLimit_isInvalidArgument() {
    EncryptBatchRequest.Builder request = EncryptBatchRequest.newBuilder().setKeyName("batch");
    for (int i = 0; i <= MAX_BATCH; i++) {
      request.addItems(EncryptBatchItem.newBuilder().setPlaintext(plaintext(i)));
    }
    Status status =
        failsWith(Status.Code.INVALID_ARGUMENT, () -> cipherd.crypto.encryptBatch(request.build()));
    assertThat(status.getDescription()).contains(String.valueOf(MAX_BATCH));
  }

  @Test
  void reEncryptBatch_rewrapsToTargetKey_andReportsSourceVersions() {
    String first = encryptOne("batch", "one");
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("batch").build());
    String second = encryptOne("batch", "two");

    ReEncryptBatchResponse response =
        cipherd.crypto.reEncryptBatch(
            ReEncryptBatchRequest.newBuilder()
                .setKeyName("target")
                .addItems(ReEncryptBatchItem.newBuilder().setReference("1").setCiphertext(first))
                .addItems(
                    ReEncryptBatchItem.newBuilder()
                        .setReference("bad")
                        .setCiphertext(tamper(first)))
                .addItems(ReEncryptBatchItem.newBuilder().setReference("2").setCiphertext(second))
                .build());

    List<ReEncryptBatchResult> results = response.getResultsList();
    assertThat(results)
        .extracting(ReEncryptBatchResult::getSourceKeyVersion)
        .containsExactly(1, 1, 2);
    assertThat(results.get(0).getCiphertext()).startsWith("<target/v1:chacha>");
    assertThat(results.get(1).getError().getMessage()).isEqualTo("decryption failed");
    assertThat(decryptOne(results.get(2).getCiphertext())).isEqualTo("two");
  }

  @Test
  void reEncryptStream_answersEveryItemInOrder_includingFailures() throws Exception {
    List<String> ciphertexts = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      ciphertexts.add(encryptOne("batch", "item " + i));
    }
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("batch").build());

    StreamRecorder<ReEncryptStreamResponse> recorder = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> requests = cipherd.cryptoAsync.reEncryptStream(recorder);
    for (int i = 0; i < ciphertexts.size(); i++) {
      String ciphertext = i % 50 == 7 ? "broken-" + i : ciphertexts.get(i);
      requests.onNext(
          ReEncryptStreamRequest.newBuilder()
              .setReference("r" + i)
              .setCiphertext(ciphertext)
              .build());
    }
    requests.onCompleted();
    List<ReEncryptStreamResponse> responses = recorder.awaitValues(30);

    assertThat(responses).hasSize(500);
    for (int i = 0; i < 500; i++) {
      ReEncryptBatchResult result = responses.get(i).getResult();
      assertThat(result.getReference()).isEqualTo("r" + i);
      if (i % 50 == 7) {
        assertThat(result.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
      } else {
        assertThat(result.getKeyVersion()).isEqualTo(2);
        assertThat(decryptOne(result.getCiphertext())).isEqualTo("item " + i);
      }
    }
  }

  @Test
  void encryptStream_thenDecryptStream_answerEveryItemInOrder_withPerItemErrors() throws Exception {
    StreamRecorder<EncryptStreamResponse> encrypted = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> toEncrypt = cipherd.cryptoAsync.encryptStream(encrypted);
    for (int i = 0; i < 300; i++) {
      // Items may name different keys; one names a key that does not exist.
      String key = i == 123 ? "missing" : i % 2 == 0 ? "batch" : "target";
      toEncrypt.onNext(
          EncryptStreamRequest.newBuilder()
              .setReference("e" + i)
              .setKeyName(key)
              .setPlaintext(ByteString.copyFromUtf8("row " + i))
              .build());
    }
    toEncrypt.onCompleted();
    List<EncryptStreamResponse> ciphertexts = encrypted.awaitValues(30);

    assertThat(ciphertexts).hasSize(300);
    assertThat(ciphertexts.get(123).getResult().getError().getCode())
        .isEqualTo(Status.Code.NOT_FOUND.value());
    StreamRecorder<DecryptStreamResponse> decrypted = new StreamRecorder<>();
    StreamObserver<DecryptStreamRequest> toDecrypt = cipherd.cryptoAsync.decryptStream(decrypted);
    for (int i = 0; i < 300; i++) {
      assertThat(ciphertexts.get(i).getResult().getReference()).isEqualTo("e" + i);
      String ciphertext =
          i == 123 ? "<batch/v1:gcm>AAAA" : ciphertexts.get(i).getResult().getCiphertext();
      toDecrypt.onNext(
          DecryptStreamRequest.newBuilder()
              .setReference("d" + i)
              .setCiphertext(ciphertext)
              .build());
    }
    toDecrypt.onCompleted();
    List<DecryptStreamResponse> plaintexts = decrypted.awaitValues(30);

    assertThat(plaintexts).hasSize(300);
    for (int i = 0; i < 300; i++) {
      DecryptBatchResult result = plaintexts.get(i).getResult();
      assertThat(result.getReference()).isEqualTo("d" + i);
      if (i == 123) {
        assertThat(result.getError().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT.value());
      } else {
        assertThat(result.getPlaintext().toStringUtf8()).isEqualTo("row " + i);
      }
    }
  }

  @Test
  void reEncryptStream_returnsItsLeasedCiphers_whenItEnds_andWhenTheClientCancels()
      throws Exception {
    String ciphertext = encryptOne("batch", "leased");
    GenericObjectPool<?> gcm = cipherd.services.cipherPools().pool(CipherMode.GCM);

    StreamRecorder<ReEncryptStreamResponse> finished = new StreamRecorder<>();
    StreamObserver<ReEncryptStreamRequest> requests = cipherd.cryptoAsync.reEncryptStream(finished);
    requests.onNext(
        ReEncryptStreamRequest.newBuilder().setReference("a").setCiphertext(ciphertext).build());
    requests.onCompleted();
    assertThat(finished.awaitValues(10)).hasSize(1);
    assertThat(gcm.getNumActive()).as("after a completed stream").isZero();

    StreamRecorder<ReEncryptStreamResponse> cancelled = new StreamRecorder<>();
    ClientCallStreamObserver<ReEncryptStreamRequest> cancelling =
        (ClientCallStreamObserver<ReEncryptStreamRequest>)
            cipherd.cryptoAsync.reEncryptStream(cancelled);
    cancelling.onNext(
        ReEncryptStreamRequest.newBuilder().setReference("b").setCiphertext(ciphertext).build());
    cancelling.cancel("client gave up", null);
    assertThatThrownBy(() -> cancelled.awaitValues(10))
        .hasCauseInstanceOf(StatusRuntimeException.class);
    // The server learns of the cancellation asynchronously; the lease goes back once it has.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (gcm.getNumActive() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(gcm.getNumActive()).as("after a cancelled stream").isZero();
  }

  private void rotateAndSetMinDecryption(String key) {
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName(key).build());
    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName(key)
            .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(2))
            .build());
  }

  private String encryptOne(String key, String text) {
    return cipherd
        .crypto
        .encryptBatch(
            EncryptBatchRequest.newBuilder()
                .setKeyName(key)
                .addItems(EncryptBatchItem.newBuilder().setPlaintext(ByteString.copyFromUtf8(text)))
                .build())
        .getResults(0)
        .getCiphertext();
  }

  private String decryptOne(String ciphertext) {
    return cipherd
        .crypto
        .decryptBatch(DecryptBatchRequest.newBuilder().addItems(item("x", ciphertext)).build())
        .getResults(0)
        .getPlaintext()
        .toStringUtf8();
  }

  private static DecryptBatchItem item(String reference, String ciphertext) {
    return DecryptBatchItem.newBuilder().setReference(reference).setCiphertext(ciphertext).build();
  }

  /** Changes one base64 digit in the middle of the payload (never a padding bit). */
  private static String tamper(String ciphertext) {
    int at = ciphertext.indexOf('>') + 5;
    char replacement = ciphertext.charAt(at) == 'A' ? 'B' : 'A';
    return ciphertext.substring(0, at) + replacement + ciphertext.substring(at + 1);
  }

  private static ByteString plaintext(int i) {
    return ByteString.copyFromUtf8("plaintext number " + i);
  }
}

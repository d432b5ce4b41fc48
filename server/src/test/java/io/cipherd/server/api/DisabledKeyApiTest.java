package io.cipherd.server.api;

import static io.cipherd.server.api.KeyLifecycleApiTest.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ComputeIndexBatchItem;
import io.cipherd.api.v1.ComputeIndexBatchRequest;
import io.cipherd.api.v1.ComputeIndexRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.DecryptStreamRequest;
import io.cipherd.api.v1.DecryptStreamResponse;
import io.cipherd.api.v1.DisableKeyRequest;
import io.cipherd.api.v1.EnableKeyRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.ItemError;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyState;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptBatchItem;
import io.cipherd.api.v1.ReEncryptBatchRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disabled key refuses every cryptographic call with KEY_DISABLED, whole calls and every item of
 * batches and streams alike, and serves again once enabled.
 */
class DisabledKeyApiTest {
  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir);
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("email-idx").setMode(Mode.MODE_HMAC).build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void disabledKey_refusesEveryCall_andEveryItem_thenServesOnceEnabled() throws Exception {
    String ciphertext = encrypt();
    computeIndex();

    Key disabled = setEnabled("orders", false);
    setEnabled("email-idx", false);

    assertThat(disabled.getState()).isEqualTo(KeyState.KEY_STATE_DISABLED);
    List<StatusRuntimeException> refusals =
        List.of(
            refusal(this::encrypt),
            refusal(
                () ->
                    cipherd.crypto.decrypt(
                        DecryptRequest.newBuilder().setCiphertext(ciphertext).build())),
            refusal(
                () ->
                    cipherd.crypto.reEncrypt(
                        ReEncryptRequest.newBuilder().setCiphertext(ciphertext).build())),
            refusal(this::computeIndex));
    for (StatusRuntimeException refused : refusals) {
      assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_DISABLED");
      assertThat(refused.getStatus().getDescription()).contains("is disabled");
    }
    List<ItemError> itemErrors = new ArrayList<>();
    itemErrors.add(
        cipherd
            .crypto
            .encryptBatch(
                EncryptBatchRequest.newBuilder()
                    .setKeyName("orders")
                    .addItems(EncryptBatchItem.newBuilder().setPlaintext(bytes("a")))
                    .build())
            .getResults(0)
            .getError());
    itemErrors.add(
        cipherd
            .crypto
            .decryptBatch(
                DecryptBatchRequest.newBuilder()
                    .addItems(DecryptBatchItem.newBuilder().setCiphertext(ciphertext))
                    .build())
            .getResults(0)
            .getError());
    itemErrors.add(
        cipherd
            .crypto
            .reEncryptBatch(
                ReEncryptBatchRequest.newBuilder()
                    .addItems(ReEncryptBatchItem.newBuilder().setCiphertext(ciphertext))
                    .build())
            .getResults(0)
            .getError());
    itemErrors.add(
        cipherd
            .crypto
            .computeIndexBatch(
                ComputeIndexBatchRequest.newBuilder()
                    .setKeyName("email-idx")
                    .addItems(ComputeIndexBatchItem.newBuilder().setValue(bytes("a@b.c")))
                    .build())
            .getResults(0)
            .getError());
    itemErrors.add(encryptStreamItem().getResult().getError());
    itemErrors.add(decryptStreamItem(ciphertext).getResult().getError());
    for (ItemError error : itemErrors) {
      assertThat(error.getReason()).isEqualTo("KEY_DISABLED");
      assertThat(error.getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION.value());
    }

    setEnabled("orders", true);
    setEnabled("email-idx", true);

    assertThat(
            cipherd
                .crypto
                .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
                .getPlaintext())
        .isEqualTo(bytes("card 4111"));
    assertThat(encryptStreamItem().getResult().hasError()).isFalse();
    assertThat(decryptStreamItem(ciphertext).getResult().getPlaintext())
        .isEqualTo(bytes("card 4111"));
    assertThat(computeIndex()).hasSize(32);
  }

  private Key setEnabled(String name, boolean enabled) {
    return enabled
        ? cipherd.admin.enableKey(EnableKeyRequest.newBuilder().setKeyName(name).build()).getKey()
        : cipherd
            .admin
            .disableKey(DisableKeyRequest.newBuilder().setKeyName(name).build())
            .getKey();
  }

  private String encrypt() {
    return cipherd
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("orders")
                .setPlaintext(bytes("card 4111"))
                .build())
        .getCiphertext();
  }

  private byte[] computeIndex() {
    return cipherd
        .crypto
        .computeIndex(
            ComputeIndexRequest.newBuilder()
                .setKeyName("email-idx")
                .setValue(bytes("a@b.c"))
                .build())
        .getIndex()
        .toByteArray();
  }

  private EncryptStreamResponse encryptStreamItem() throws Exception {
    StreamRecorder<EncryptStreamResponse> answers = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> requests = cipherd.cryptoAsync.encryptStream(answers);
    requests.onNext(
        EncryptStreamRequest.newBuilder()
            .setReference("e1")
            .setKeyName("orders")
            .setPlaintext(bytes("row"))
            .build());
    requests.onCompleted();
    return answers.awaitValues(30).get(0);
  }

  private DecryptStreamResponse decryptStreamItem(String ciphertext) throws Exception {
    StreamRecorder<DecryptStreamResponse> answers = new StreamRecorder<>();
    StreamObserver<DecryptStreamRequest> requests = cipherd.cryptoAsync.decryptStream(answers);
    requests.onNext(
        DecryptStreamRequest.newBuilder().setReference("d1").setCiphertext(ciphertext).build());
    requests.onCompleted();
    return answers.awaitValues(30).get(0);
  }

  private static ByteString bytes(String text) {
    return ByteString.copyFromUtf8(text);
  }
}

package io.cipherd.server.api;

import static io.cipherd.server.api.TokenCallers.as;
import static io.cipherd.server.api.TokenCallers.tokenHash;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedStreamRequest;
import io.cipherd.api.v1.EncryptFormattedStreamResponse;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormatPreservingServiceGrpc.FormatPreservingServiceStub;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.FpeFormat;
import io.cipherd.api.v1.FpeTemplate;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.ReEncryptFormattedStreamRequest;
import io.cipherd.api.v1.ReEncryptFormattedStreamResponse;
import io.cipherd.api.v1.VersionCensus;
import io.cipherd.server.security.AccessPolicyFile;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The format-preserving item streams in-process: one response per item in request order, an item's
 * error in its own result between good ones, rotation and re-encryption through the streams with
 * the census counting every item, the idle timeout, and a caller without {@code decrypt} getting no
 * plaintext through any stream. {@code FormatPreservingSocketTest} runs them over a real port (flow
 * control, 10,000 items, resumption).
 */
class FormatPreservingStreamTest {
  private static final ByteString COLUMN = ByteString.copyFromUtf8("users.card_number");
  private static final List<String> CARDS =
      List.of("4111111111111111", "5500000000000004", "4012888888881881", "6011000000000004");

  @TempDir Path dataDir;

  @Test
  void everyStream_answersEachItemInOrder_anItemsErrorInItsOwnResult() throws Exception {
    try (InProcessCipherd cipherd = InProcessCipherd.start(dataDir)) {
      create(cipherd, "cards", FpeTemplate.FPE_TEMPLATE_CARD_NUMBER_LAST_FOUR);
      FormatPreservingServiceStub fpe = FormatPreservingServiceGrpc.newStub(cipherd.channel);

      List<String> values = new ArrayList<>(CARDS);
      values.add(2, "not a card");
      List<FormattedBatchResult> encrypted =
          encryptStream(fpe, "cards", values).stream()
              .map(EncryptFormattedStreamResponse::getResult)
              .toList();
      assertThat(encrypted)
          .extracting(FormattedBatchResult::getReference)
          .containsExactly("r0", "r1", "r2", "r3", "r4");
      assertThat(encrypted.get(2).getError().getCode())
          .isEqualTo(Status.Code.INVALID_ARGUMENT.value());
      assertThat(encrypted.get(2).getKeyVersion()).isZero();
      for (int i : new int[] {0, 1, 3, 4}) {
        assertThat(encrypted.get(i).hasError()).as("item %d", i).isFalse();
        assertThat(encrypted.get(i).getKeyVersion()).isEqualTo(1);
        assertThat(encrypted.get(i).getValue())
            .hasSameSizeAs(values.get(i))
            .isNotEqualTo(values.get(i));
      }

      List<DecryptFormattedStreamRequest> decrypts = new ArrayList<>();
      for (int i : new int[] {0, 1, 3, 4}) {
        decrypts.add(
            DecryptFormattedStreamRequest.newBuilder()
                .setReference("d" + i)
                .setKeyName("cards")
                .setValue(encrypted.get(i).getValue())
                .setContext(COLUMN)
                .setKeyVersion(1)
                .build());
      }
      decrypts.add(
          2,
          DecryptFormattedStreamRequest.newBuilder()
              .setReference("no-version")
              .setKeyName("cards")
              .setValue(encrypted.get(0).getValue())
              .setContext(COLUMN)
              .build());
      List<FormattedBatchResult> decrypted =
          run(fpe::decryptFormattedStream, decrypts).stream()
              .map(DecryptFormattedStreamResponse::getResult)
              .toList();
      assertThat(decrypted)
          .extracting(FormattedBatchResult::getReference)
          .containsExactly("d0", "d1", "no-version", "d3", "d4");
      assertThat(decrypted.get(2).getError().getMessage())
          .contains("pass the key_version EncryptFormatted returned");
      assertThat(List.of(decrypted.get(0), decrypted.get(1), decrypted.get(3), decrypted.get(4)))
          .extracting(FormattedBatchResult::getValue)
          .containsExactlyElementsOf(CARDS);

      cipherd.rotate("cards");
      List<ReEncryptFormattedStreamRequest> moves = new ArrayList<>();
      for (int i : new int[] {0, 1, 3, 4}) {
        moves.add(
            ReEncryptFormattedStreamRequest.newBuilder()
                .setReference("m" + i)
                .setKeyName("cards")
                .setValue(encrypted.get(i).getValue())
                .setContext(COLUMN)
                .setKeyVersion(1)
                .build());
      }
      moves.add(
          1,
          ReEncryptFormattedStreamRequest.newBuilder()
              .setReference("unknown-version")
              .setKeyName("cards")
              .setValue(encrypted.get(0).getValue())
              .setContext(COLUMN)
              .setKeyVersion(9)
              .build());
      List<FormattedBatchResult> moved =
          run(fpe::reEncryptFormattedStream, moves).stream()
              .map(ReEncryptFormattedStreamResponse::getResult)
              .toList();
      assertThat(moved)
          .extracting(FormattedBatchResult::getReference)
          .containsExactly("m0", "unknown-version", "m1", "m3", "m4");
      assertThat(moved.get(1).getError().getCode()).isEqualTo(Status.Code.NOT_FOUND.value());
      List<String> movedValues = new ArrayList<>();
      for (FormattedBatchResult result : List.of(moved.get(0), moved.get(2), moved.get(3))) {
        assertThat(result.getKeyVersion()).isEqualTo(2);
        assertThat(result.getSourceKeyVersion()).isEqualTo(1);
        movedValues.add(result.getValue());
      }
      List<DecryptFormattedStreamRequest> back = new ArrayList<>();
      for (int i = 0; i < movedValues.size(); i++) {
        back.add(
            DecryptFormattedStreamRequest.newBuilder()
                .setReference("b" + i)
                .setKeyName("cards")
                .setValue(movedValues.get(i))
                .setContext(COLUMN)
                .setKeyVersion(2)
                .build());
      }
      assertThat(run(fpe::decryptFormattedStream, back))
          .extracting(response -> response.getResult().getValue())
          .containsExactly(CARDS.get(0), CARDS.get(1), CARDS.get(2));

      // The census counts every item the streams handled, once each.
      VersionCensus v1 =
          cipherd
              .admin
              .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("cards").build())
              .getVersions(0);
      assertThat(v1.getVersion()).isEqualTo(1);
      assertThat(v1.getUsage().getEncryptions()).isEqualTo(4);
      assertThat(v1.getUsage().getDecryptions()).as("4 decrypted, 4 re-encrypted").isEqualTo(8);
      assertThat(cipherd.services.streams().open("ReEncryptFormattedStream")).isZero();
    }
  }

  @Test
  void stream_receivingNothingForTheIdleTimeout_isCancelledAfterAnsweringEveryItem()
      throws Exception {
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(
            dataDir, settings -> settings.streamIdleTimeout(Duration.ofMillis(200)))) {
      create(cipherd, "cards", FpeTemplate.FPE_TEMPLATE_DIGITS);
      StreamRecorder<EncryptFormattedStreamResponse> answers = new StreamRecorder<>();
      StreamObserver<EncryptFormattedStreamRequest> requests =
          FormatPreservingServiceGrpc.newStub(cipherd.channel).encryptFormattedStream(answers);
      for (int i = 0; i < 3; i++) {
        requests.onNext(encryptItem("q" + i, "cards", "12345678" + i));
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
      assertThat(cipherd.services.streams().closedIdle("EncryptFormattedStream")).isEqualTo(1);
      assertThat(cipherd.services.streams().open("EncryptFormattedStream")).isZero();
    }
  }

  @Test
  void aCallerWithoutDecrypt_getsNoPlaintextThroughAnyStream() throws Exception {
    try (InProcessCipherd cipherd =
        InProcessCipherd.start(
            dataDir,
            AccessPolicyFile.parse(
                "test",
                new StringReader(
                    """
                    callers:
                      app:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [admin, encrypt, decrypt]
                      support:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [mask, encrypt]
                      rotator:
                        token_sha256: %s
                        rules:
                          - keys: ["*"]
                            operations: [reencrypt]
                    """
                        .formatted(
                            tokenHash("app"), tokenHash("support"), tokenHash("rotator")))))) {
      as("app", cipherd.admin)
          .createKey(
              CreateKeyRequest.newBuilder()
                  .setKeyName("cards")
                  .setMode(Mode.MODE_FF1)
                  .setFpeFormat(FpeFormat.newBuilder().setTemplate(FpeTemplate.FPE_TEMPLATE_DIGITS))
                  .build());
      FormatPreservingServiceStub app =
          as("app", FormatPreservingServiceGrpc.newStub(cipherd.channel));
      List<String> ciphertexts =
          encryptStream(app, "cards", CARDS).stream()
              .map(response -> response.getResult().getValue())
              .toList();

      for (String caller : List.of("support", "rotator")) {
        FormatPreservingServiceStub stub =
            as(caller, FormatPreservingServiceGrpc.newStub(cipherd.channel));
        List<DecryptFormattedStreamRequest> decrypts = new ArrayList<>();
        List<ReEncryptFormattedStreamRequest> moves = new ArrayList<>();
        for (int i = 0; i < ciphertexts.size(); i++) {
          decrypts.add(
              DecryptFormattedStreamRequest.newBuilder()
                  .setReference("d" + i)
                  .setKeyName("cards")
                  .setValue(ciphertexts.get(i))
                  .setContext(COLUMN)
                  .setKeyVersion(1)
                  .build());
          moves.add(
              ReEncryptFormattedStreamRequest.newBuilder()
                  .setReference("m" + i)
                  .setKeyName("cards")
                  .setValue(ciphertexts.get(i))
                  .setContext(COLUMN)
                  .setKeyVersion(1)
                  .build());
        }
        List<FormattedBatchResult> decrypted =
            run(stub::decryptFormattedStream, decrypts).stream()
                .map(DecryptFormattedStreamResponse::getResult)
                .toList();
        assertThat(decrypted).hasSize(CARDS.size());
        assertThat(decrypted)
            .as("%s's DecryptFormattedStream", caller)
            .allSatisfy(
                result ->
                    assertThat(result.getError().getCode())
                        .isEqualTo(Status.Code.PERMISSION_DENIED.value()));
        List<FormattedBatchResult> moved =
            run(stub::reEncryptFormattedStream, moves).stream()
                .map(ReEncryptFormattedStreamResponse::getResult)
                .toList();
        assertThat(moved).hasSize(CARDS.size());
        if (caller.equals("support")) {
          assertThat(moved)
              .as("a mask-and-encrypt caller's ReEncryptFormattedStream")
              .allSatisfy(
                  result ->
                      assertThat(result.getError().getCode())
                          .isEqualTo(Status.Code.PERMISSION_DENIED.value()));
        } else {
          // reencrypt alone rewraps (under one version, into the same ciphertext): never the
          // plaintext.
          assertThat(moved)
              .extracting(FormattedBatchResult::getValue)
              .containsExactlyElementsOf(ciphertexts)
              .doesNotContainAnyElementsOf(CARDS);
        }
      }
    }
  }

  private static void create(InProcessCipherd cipherd, String name, FpeTemplate template) {
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder()
            .setKeyName(name)
            .setMode(Mode.MODE_FF1)
            .setFpeFormat(FpeFormat.newBuilder().setTemplate(template))
            .build());
  }

  static EncryptFormattedStreamRequest encryptItem(String reference, String key, String value) {
    return EncryptFormattedStreamRequest.newBuilder()
        .setReference(reference)
        .setKeyName(key)
        .setValue(value)
        .setContext(COLUMN)
        .build();
  }

  private static List<EncryptFormattedStreamResponse> encryptStream(
      FormatPreservingServiceStub fpe, String key, List<String> values) throws Exception {
    List<EncryptFormattedStreamRequest> requests = new ArrayList<>();
    for (int i = 0; i < values.size(); i++) {
      requests.add(encryptItem("r" + i, key, values.get(i)));
    }
    return run(fpe::encryptFormattedStream, requests);
  }

  /** Sends {@code requests} on a new stream, half-closes it and returns every response. */
  private static <Q, R> List<R> run(
      Function<StreamObserver<R>, StreamObserver<Q>> open, List<Q> requests) throws Exception {
    StreamRecorder<R> answers = new StreamRecorder<>();
    StreamObserver<Q> stream = open.apply(answers);
    requests.forEach(stream::onNext);
    stream.onCompleted();
    return answers.awaitValues(30);
  }
}

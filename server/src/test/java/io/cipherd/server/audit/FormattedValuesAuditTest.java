package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.DecryptFormattedStreamRequest;
import io.cipherd.api.v1.DecryptFormattedStreamResponse;
import io.cipherd.api.v1.EncryptFormattedBatchItem;
import io.cipherd.api.v1.EncryptFormattedBatchRequest;
import io.cipherd.api.v1.FormatPreservingServiceGrpc;
import io.cipherd.api.v1.FormattedBatchResult;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.server.api.StreamRecorder;
import io.cipherd.server.crypto.fpe.FormatTemplate;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.security.BearerTokens;
import io.grpc.ClientInterceptor;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Format-preserving batches and streams in the audit trail and the census: a batch authorized once
 * still accounts for each item (its successes and its failures under the version, a refused batch's
 * items under version 0), a stream's items each count, and the census counts what succeeded once;
 * no value reaches the trail.
 */
class FormattedValuesAuditTest {
  private static final String POLICY =
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
              operations: [mask]
      """
          .formatted(BearerTokens.hashHex("token-app-71c"), BearerTokens.hashHex("token-sup-3e0"));

  private static final List<String> CARDS =
      List.of("4111111111111111", "5500000000000004", "4012888888881881", "6011000000000004");
  private static final ByteString COLUMN = ByteString.copyFromUtf8("ctx-users-card-5a1");

  @TempDir Path dir;

  @Test
  void batchesAndStreams_accountForEveryItem_onceEach() throws Exception {
    Path log = dir.resolve("audit.log");
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    List<FormattedBatchResult> sealed;
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, true, Duration.ofMillis(50), 1 << 20), policy)) {
      cipherd
          .services
          .admin()
          .create(
              "cards",
              KeyTemplate.formatPreserving(FpeFormat.ofTemplate(FormatTemplate.DIGITS, false, 0)));
      var app = as("token-app-71c", FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel));
      var support =
          as("token-sup-3e0", FormatPreservingServiceGrpc.newBlockingStub(cipherd.channel));

      EncryptFormattedBatchRequest.Builder batch =
          EncryptFormattedBatchRequest.newBuilder().setKeyName("cards").setContext(COLUMN);
      for (String card : CARDS) {
        batch.addItems(EncryptFormattedBatchItem.newBuilder().setValue(card));
      }
      batch.addItems(EncryptFormattedBatchItem.newBuilder().setValue("12a45678"));
      sealed = app.encryptFormattedBatch(batch.build()).getResultsList();
      assertThat(sealed.get(4).getError().getCode())
          .isEqualTo(Status.Code.INVALID_ARGUMENT.value());
      assertThat(
              catchThrowableOfType(
                      StatusRuntimeException.class,
                      () -> support.encryptFormattedBatch(batch.build()))
                  .getStatus()
                  .getCode())
          .isEqualTo(Status.Code.PERMISSION_DENIED);

      for (String token : List.of("token-app-71c", "token-sup-3e0")) {
        StreamRecorder<DecryptFormattedStreamResponse> answers = new StreamRecorder<>();
        StreamObserver<DecryptFormattedStreamRequest> requests =
            as(token, FormatPreservingServiceGrpc.newStub(cipherd.channel))
                .decryptFormattedStream(answers);
        for (int i = 0; i < 3; i++) {
          requests.onNext(
              DecryptFormattedStreamRequest.newBuilder()
                  .setReference("s" + i)
                  .setKeyName("cards")
                  .setValue(sealed.get(i).getValue())
                  .setContext(COLUMN)
                  .setKeyVersion(1)
                  .build());
        }
        requests.onCompleted();
        assertThat(answers.awaitValues(10)).hasSize(3);
      }

      var census =
          cipherd
              .admin
              .withInterceptors(bearer("token-app-71c"))
              .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName("cards").build())
              .getVersions(0)
              .getUsage();
      assertThat(census.getEncryptions()).isEqualTo(4);
      assertThat(census.getDecryptions()).isEqualTo(3);
    }

    List<JsonObject> calls = AuditRecords.calls(log);
    List<JsonObject> batches = AuditRecords.of(calls, "EncryptFormattedBatch");
    assertThat(batches).hasSize(2);
    assertThat(batches.get(0).get("items").getAsLong()).isEqualTo(5);
    assertThat(AuditRecords.outcomes(batches.get(0), "cards", 1))
        .isEqualTo("{\"INVALID_ARGUMENT\":1,\"ok\":4}");
    assertThat(batches.get(1).get("reason").getAsString()).isEqualTo("ACCESS_DENIED");
    assertThat(batches.get(1).get("items").getAsLong()).isEqualTo(5);
    assertThat(AuditRecords.outcomes(batches.get(1), "cards", 0))
        .as("refused once, each item accounted for")
        .isEqualTo("{\"ACCESS_DENIED\":5}");

    List<JsonObject> streams =
        AuditRecords.of(calls, "DecryptFormattedStream").stream()
            .filter(record -> !record.get("status").getAsString().equals("OPEN"))
            .filter(record -> !record.get("status").getAsString().equals("PROGRESS"))
            .toList();
    assertThat(streams).hasSize(2);
    assertThat(streams)
        .allSatisfy(record -> assertThat(record.get("items").getAsLong()).isEqualTo(3));
    assertThat(AuditRecords.outcomes(streams.get(0), "cards", 1)).isEqualTo("{\"ok\":3}");
    assertThat(AuditRecords.outcomes(streams.get(1), "cards", 0))
        .isEqualTo("{\"ACCESS_DENIED\":3}");

    String text = Files.readString(log);
    for (String card : CARDS) {
      assertThat(text).doesNotContain(card);
    }
    for (FormattedBatchResult result : sealed.subList(0, 4)) {
      assertThat(text).doesNotContain(result.getValue());
    }
    assertThat(text).doesNotContain(COLUMN.toStringUtf8());
  }

  private static <S extends AbstractStub<S>> S as(String token, S stub) {
    return stub.withInterceptors(bearer(token));
  }

  private static ClientInterceptor bearer(String token) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return MetadataUtils.newAttachHeadersInterceptor(headers);
  }
}

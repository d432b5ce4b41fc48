package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.AuditCheckpoint;
import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.HashAuditValueRequest;
import io.cipherd.api.v1.VerifyAuditCheckpointsRequest;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.AccessPolicyFile;
import io.cipherd.server.security.BearerTokens;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.AbstractStub;
import io.grpc.stub.MetadataUtils;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Under an access policy: records name token callers by the token's name (never the token), record
 * refused calls and refused batches item by item, and the audit service needs the audit operation.
 */
class AuditedCallersTest {
  private static final String POLICY =
      """
      callers:
        billing:
          token_sha256: %s
          rules:
            - keys: [orders]
              operations: [encrypt]
        auditor:
          token_sha256: %s
          rules:
            - keys: ["*"]
              operations: [audit]
      """
          .formatted(
              BearerTokens.hashHex("token-billing-5ec3"),
              BearerTokens.hashHex("token-auditor-9d1"));

  @TempDir Path dir;

  @Test
  void tokenCallers_refusals_andAuditService() throws Exception {
    Path log = dir.resolve("audit.log");
    AccessPolicy policy = AccessPolicyFile.parse("test", new StringReader(POLICY));
    AuditKey key;
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, true, Duration.ofMillis(10), 1 << 20), policy)) {
      key = cipherd.key;
      cipherd.services.admin().create("orders", KeyTemplate.of(CipherMode.GCM));
      cipherd.services.admin().create("secret", KeyTemplate.of(CipherMode.GCM));
      CryptoServiceGrpc.CryptoServiceBlockingStub billing =
          as("token-billing-5ec3", cipherd.crypto);
      billing.encrypt(
          EncryptRequest.newBuilder().setKeyName("orders").setPlaintext(utf8("x")).build());
      EncryptBatchRequest.Builder refusedBatch =
          EncryptBatchRequest.newBuilder().setKeyName("secret");
      for (int i = 0; i < 5; i++) {
        refusedBatch.addItems(EncryptBatchItem.newBuilder().setPlaintext(utf8("y" + i)));
      }
      assertThat(code(() -> billing.encryptBatch(refusedBatch.build())))
          .isEqualTo(Status.Code.PERMISSION_DENIED);
      assertThat(
              code(
                  () ->
                      cipherd.crypto.encrypt(
                          EncryptRequest.newBuilder().setKeyName("orders").build())))
          .isEqualTo(Status.Code.UNAUTHENTICATED);
      HashAuditValueRequest hash = HashAuditValueRequest.newBuilder().setValue(utf8("v")).build();
      assertThat(code(() -> as("token-billing-5ec3", cipherd.audit).hashAuditValue(hash)))
          .isEqualTo(Status.Code.PERMISSION_DENIED);
      AuditServiceGrpc.AuditServiceBlockingStub auditor = as("token-auditor-9d1", cipherd.audit);
      assertThat(auditor.hashAuditValue(hash).getHash())
          .isEqualTo(key.hashContext(new byte[] {'v'}));
      HashAuditValueRequest tooBig =
          HashAuditValueRequest.newBuilder().setValue(ByteString.copyFrom(new byte[65537])).build();
      assertThat(code(() -> auditor.hashAuditValue(tooBig)))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
      VerifyAuditCheckpointsRequest.Builder tooMany = VerifyAuditCheckpointsRequest.newBuilder();
      for (int i = 0; i < 10_001; i++) {
        tooMany.addCheckpoints(AuditCheckpoint.getDefaultInstance());
      }
      assertThat(code(() -> auditor.verifyAuditCheckpoints(tooMany.build())))
          .isEqualTo(Status.Code.INVALID_ARGUMENT);
      Thread.sleep(50); // a checkpoint is due every 10 ms
      billing.encrypt(
          EncryptRequest.newBuilder().setKeyName("orders").setPlaintext(utf8("z")).build());
      JsonObject checkpoint =
          Files.readAllLines(log).stream()
              .map(line -> JsonParser.parseString(line).getAsJsonObject())
              .filter(line -> line.get("type").getAsString().equals("checkpoint"))
              .findFirst()
              .orElseThrow();
      AuditCheckpoint real =
          AuditCheckpoint.newBuilder()
              .setSeq(checkpoint.get("seq").getAsLong())
              .setTime(checkpoint.get("time").getAsString())
              .setPrev(checkpoint.get("prev").getAsString())
              .setMac(checkpoint.get("mac").getAsString())
              .build();
      AuditCheckpoint forged = real.toBuilder().setSeq(real.getSeq() + 1).build();
      assertThat(
              auditor
                  .verifyAuditCheckpoints(
                      VerifyAuditCheckpointsRequest.newBuilder()
                          .addCheckpoints(real)
                          .addCheckpoints(forged)
                          .build())
                  .getValidList())
          .containsExactly(true, false);
    }
    List<JsonObject> calls = AuditRecords.calls(log);
    JsonObject encrypt = AuditRecords.of(calls, "Encrypt").get(0);
    assertThat(encrypt.getAsJsonObject("caller").get("id").getAsString()).isEqualTo("billing");
    assertThat(encrypt.getAsJsonObject("caller").get("via").getAsString()).isEqualTo("token");
    JsonObject batch = AuditRecords.only(calls, "EncryptBatch");
    assertThat(batch.get("status").getAsString()).isEqualTo("PERMISSION_DENIED");
    assertThat(batch.get("reason").getAsString()).isEqualTo("ACCESS_DENIED");
    assertThat(batch.get("items").getAsLong()).isEqualTo(5);
    assertThat(AuditRecords.outcomes(batch, "secret", 0)).isEqualTo("{\"ACCESS_DENIED\":5}");
    JsonObject anonymous = AuditRecords.of(calls, "Encrypt").get(1);
    assertThat(anonymous.get("status").getAsString()).isEqualTo("UNAUTHENTICATED");
    assertThat(anonymous.getAsJsonObject("caller").get("via").getAsString()).isEqualTo("anonymous");
    assertThat(AuditRecords.of(calls, "HashAuditValue")).hasSize(3);
    assertThat(AuditRecords.of(calls, "VerifyAuditCheckpoints"))
        .extracting(c -> c.get("status").getAsString())
        .containsExactly("INVALID_ARGUMENT", "OK");
    String text = Files.readString(log);
    assertThat(text).doesNotContain("token-billing-5ec3").doesNotContain("token-auditor-9d1");
    assertThat(AuditTrailVerifier.verify(key, log).problem()).isNull();
  }

  private static Status.Code code(Runnable call) {
    return catchThrowableOfType(StatusRuntimeException.class, call::run).getStatus().getCode();
  }

  private static <S extends AbstractStub<S>> S as(String token, S stub) {
    Metadata headers = new Metadata();
    headers.put(
        Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER), "Bearer " + token);
    return stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static ByteString utf8(String text) {
    return ByteString.copyFromUtf8(text);
  }
}

package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EncryptStreamRequest;
import io.cipherd.api.v1.EncryptStreamResponse;
import io.cipherd.api.v1.HashAuditValueRequest;
import io.cipherd.api.v1.InspectRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.server.api.StreamRecorder;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kind of RPC, served in process by a server wired as Main wires it, leaves exactly one
 * record in the audit file accounting for each of its items, with no secret in the file, and the
 * chain verifies; with and without --audit-required.
 */
class AuditedCallsTest {
  private static final String CONTEXT = "ctx-7f3a-tenant-secret";
  private static final String PLAINTEXT = "plain-9c1e-card-4111";

  @TempDir Path dir;

  @ParameterizedTest(name = "required={0}")
  @ValueSource(booleans = {false, true})
  void everyRpcKind_oneRecordEach_accountingForEveryItem(boolean required) throws Exception {
    Path log = dir.resolve("audit.log");
    List<String> secrets = new ArrayList<>(List.of(CONTEXT, PLAINTEXT));
    String hash;
    AuditKey key;
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, required, Duration.ofMillis(50), 1 << 20), null)) {
      key = cipherd.key;
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER), "req-unary");
      String unary =
          cipherd
              .crypto
              .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("orders")
                      .setPlaintext(utf8(PLAINTEXT))
                      .setContext(utf8(CONTEXT))
                      .build())
              .getCiphertext();
      secrets.add(unary);
      cipherd.crypto.inspect(InspectRequest.newBuilder().setCiphertext(unary).build());
      EncryptBatchRequest.Builder batch = EncryptBatchRequest.newBuilder().setKeyName("orders");
      for (int i = 0; i < 256; i++) {
        batch.addItems(
            EncryptBatchItem.newBuilder()
                .setReference("r" + i)
                .setPlaintext(utf8(PLAINTEXT + "-" + i))
                .setContext(utf8(CONTEXT)));
      }
      List<EncryptBatchResult> sealed = cipherd.crypto.encryptBatch(batch.build()).getResultsList();
      DecryptBatchRequest.Builder open = DecryptBatchRequest.newBuilder();
      for (int i = 0; i < 256; i++) {
        String ciphertext = sealed.get(i).getCiphertext();
        secrets.add(ciphertext.substring(ciphertext.indexOf('>') + 1));
        // Seven items (every 40th) with the wrong context: they fail as DECRYPTION_FAILED on
        // version 1.
        open.addItems(
            DecryptBatchItem.newBuilder()
                .setCiphertext(ciphertext)
                .setContext(utf8(i % 40 == 0 ? "wrong" : CONTEXT)));
      }
      var opened = cipherd.crypto.decryptBatch(open.build()).getResultsList();
      assertThat(opened.stream().filter(r -> r.hasError()).count()).isEqualTo(7);
      assertThat(streamTen(cipherd)).hasSize(10);
      hash =
          cipherd
              .audit
              .hashAuditValue(HashAuditValueRequest.newBuilder().setValue(utf8(CONTEXT)).build())
              .getHash();
      assertThat(hash).isEqualTo(cipherd.key.hashContext(CONTEXT.getBytes(StandardCharsets.UTF_8)));
      cipherd.close();

      List<JsonObject> calls = AuditRecords.calls(log);
      assertThat(AuditRecords.of(calls, "CreateKey")).hasSize(1);
      JsonObject encrypt = AuditRecords.only(calls, "Encrypt");
      assertThat(encrypt.get("request_id").getAsString()).matches("[0-9a-f]{16}");
      assertThat(encrypt.get("client_request_id").getAsString()).isEqualTo("req-unary");
      assertThat(encrypt.get("items").getAsLong()).isEqualTo(1);
      assertThat(encrypt.get("key").getAsString()).isEqualTo("orders");
      assertThat(encrypt.get("status").getAsString()).isEqualTo("OK");
      assertThat(encrypt.get("context_hash").getAsString()).isEqualTo(hash);
      assertThat(encrypt.getAsJsonObject("caller").get("via").getAsString()).isEqualTo("anonymous");
      assertThat(AuditRecords.outcomes(encrypt, "orders", 1)).isEqualTo("{\"ok\":1}");
      JsonObject inspect = AuditRecords.only(calls, "Inspect");
      assertThat(inspect.get("key").getAsString()).isEqualTo("orders/v1");
      assertThat(AuditRecords.outcomes(inspect, "orders", 0)).isEqualTo("{\"ok\":1}");
      JsonObject encryptBatch = AuditRecords.only(calls, "EncryptBatch");
      assertThat(encryptBatch.get("items").getAsLong()).isEqualTo(256);
      assertThat(AuditRecords.outcomes(encryptBatch, "orders", 1)).isEqualTo("{\"ok\":256}");
      JsonObject decryptBatch = AuditRecords.only(calls, "DecryptBatch");
      assertThat(decryptBatch.get("items").getAsLong()).isEqualTo(256);
      assertThat(AuditRecords.outcomes(decryptBatch, "orders", 1))
          .isEqualTo("{\"DECRYPTION_FAILED\":7,\"ok\":249}");
      JsonObject stream = AuditRecords.only(calls, "EncryptStream");
      assertThat(stream.get("items").getAsLong()).isEqualTo(10);
      assertThat(AuditRecords.outcomes(stream, "orders", 1)).isEqualTo("{\"ok\":10}");
      assertThat(AuditRecords.only(calls, "HashAuditValue").get("status").getAsString())
          .isEqualTo("OK");
      long opens = calls.stream().filter(c -> c.get("status").getAsString().equals("OPEN")).count();
      assertThat(opens).isEqualTo(required ? 1 : 0);
      assertThat(calls).hasSize(7 + (int) opens);
    }
    String text = Files.readString(log);
    for (String secret : secrets) {
      assertThat(text).doesNotContain(secret);
    }
    AuditTrailVerifier.Result verified = AuditTrailVerifier.verify(key, log);
    assertThat(verified.problem()).isNull();
  }

  @Test
  void aRefusedVersion_isCountedUnderThatVersion_withItsReason() throws Exception {
    Path log = dir.resolve("audit.log");
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, true, Duration.ofMillis(50), 1 << 20), null)) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
      String old =
          cipherd
              .crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("orders")
                      .setPlaintext(utf8(PLAINTEXT))
                      .build())
              .getCiphertext();
      cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build());
      cipherd.admin.scheduleKeyVersionDestruction(
          ScheduleKeyVersionDestructionRequest.newBuilder()
              .setKeyName("orders")
              .addVersions(1)
              .build());
      assertThatThrownBy(
              () -> cipherd.crypto.decrypt(DecryptRequest.newBuilder().setCiphertext(old).build()))
          .isInstanceOf(StatusRuntimeException.class);
      cipherd.close();
      JsonObject decrypt = AuditRecords.only(AuditRecords.calls(log), "Decrypt");
      assertThat(decrypt.get("reason").getAsString())
          .isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");
      assertThat(AuditRecords.outcomes(decrypt, "orders", 1))
          .isEqualTo("{\"KEY_VERSION_DESTRUCTION_SCHEDULED\":1}");
    }
  }

  @Test
  void anUnexpectedKey_isCountedUnderTheCiphertextsKey_withItsReason() throws Exception {
    Path log = dir.resolve("audit.log");
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, true, Duration.ofMillis(50), 1 << 20), null)) {
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("users-email").build());
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("attacker-key").build());
      String planted =
          cipherd
              .crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("attacker-key")
                      .setPlaintext(utf8(PLAINTEXT))
                      .build())
              .getCiphertext();
      String real =
          cipherd
              .crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("users-email")
                      .setPlaintext(utf8(PLAINTEXT))
                      .build())
              .getCiphertext();
      assertThatThrownBy(
              () ->
                  cipherd.crypto.decrypt(
                      DecryptRequest.newBuilder()
                          .setCiphertext(planted)
                          .setExpectedKey("users-email")
                          .build()))
          .isInstanceOf(StatusRuntimeException.class);
      DecryptBatchRequest.Builder batch =
          DecryptBatchRequest.newBuilder().setExpectedKey("users-email");
      for (int i = 0; i < 5; i++) {
        batch.addItems(DecryptBatchItem.newBuilder().setCiphertext(i == 2 ? planted : real));
      }
      assertThat(cipherd.crypto.decryptBatch(batch.build()).getResultsList()).hasSize(5);
      cipherd.close();

      List<JsonObject> calls = AuditRecords.calls(log);
      JsonObject decrypt = AuditRecords.only(calls, "Decrypt");
      assertThat(decrypt.get("reason").getAsString()).isEqualTo("UNEXPECTED_KEY");
      assertThat(AuditRecords.outcomes(decrypt, "attacker-key", ItemTally.NO_VERSION))
          .isEqualTo("{\"UNEXPECTED_KEY\":1}");
      JsonObject decryptBatch = AuditRecords.only(calls, "DecryptBatch");
      assertThat(AuditRecords.outcomes(decryptBatch, "users-email", 1)).isEqualTo("{\"ok\":4}");
      assertThat(AuditRecords.outcomes(decryptBatch, "attacker-key", ItemTally.NO_VERSION))
          .isEqualTo("{\"UNEXPECTED_KEY\":1}");
      assertThat(Files.readString(log)).doesNotContain(planted.substring(planted.indexOf('>')));
    }
  }

  private static List<EncryptStreamResponse> streamTen(AuditServer cipherd) throws Exception {
    StreamRecorder<EncryptStreamResponse> responses = new StreamRecorder<>();
    StreamObserver<EncryptStreamRequest> requests = cipherd.cryptoAsync.encryptStream(responses);
    for (int i = 0; i < 10; i++) {
      requests.onNext(
          EncryptStreamRequest.newBuilder()
              .setReference("s" + i)
              .setKeyName("orders")
              .setPlaintext(utf8(PLAINTEXT + "-s" + i))
              .build());
    }
    requests.onCompleted();
    return responses.awaitValues(10);
  }

  static ByteString utf8(String text) {
    return ByteString.copyFromUtf8(text);
  }
}

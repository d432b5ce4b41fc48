package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import com.google.protobuf.util.Timestamps;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.api.v1.VersionCount;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the audit trail keeps of a retirement and of the use of a version pending destruction: each
 * inventory a RetireKeyVersions call sent, the versions a call named while they were pending
 * destruction, and the cancellation the server made on its own, in a chain that still verifies.
 */
class RetirementAuditTest {
  @TempDir Path dir;

  @Test
  void inventories_useOfAPendingVersion_andTheCancellation_areRecorded() throws Exception {
    Path log = dir.resolve("audit.log");
    AuditKey key;
    try (AuditServer cipherd =
        new AuditServer(new AuditConfig(log, false, Duration.ofMillis(50), 1 << 20), null)) {
      key = cipherd.key;
      cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
      String old =
          cipherd
              .crypto
              .encrypt(
                  EncryptRequest.newBuilder()
                      .setKeyName("orders")
                      .setPlaintext(ByteString.copyFromUtf8("card 4111"))
                      .build())
              .getCiphertext();
      cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("orders").build());
      assertThatThrownBy(
              () ->
                  cipherd.admin.retireKeyVersions(
                      RetireKeyVersionsRequest.newBuilder()
                          .setKeyName("orders")
                          .setBelowVersion(2)
                          .addInventories(
                              DataInventory.newBuilder()
                                  .setKeyName("orders")
                                  .setSource("postgres:users.email")
                                  .setScanTime(Timestamps.parse("2026-11-24T08:00:00Z"))
                                  .setItemsScanned(1200)
                                  .addVersions(
                                      VersionCount.newBuilder().setVersion(1).setCiphertexts(3))
                                  .addVersions(
                                      VersionCount.newBuilder().setVersion(2).setCiphertexts(1197)))
                          .build()))
          .isInstanceOf(StatusRuntimeException.class);
      cipherd.admin.updateKeyPolicy(
          UpdateKeyPolicyRequest.newBuilder()
              .setKeyName("orders")
              .setPolicy(KeyPolicy.newBuilder().setCancelDestructionOnUse(true))
              .build());
      cipherd.admin.scheduleKeyVersionDestruction(
          ScheduleKeyVersionDestructionRequest.newBuilder()
              .setKeyName("orders")
              .addVersions(1)
              .build());
      Metadata headers = new Metadata();
      headers.put(Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER), "req-cold");
      assertThatThrownBy(
              () ->
                  cipherd
                      .crypto
                      .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                      .decrypt(DecryptRequest.newBuilder().setCiphertext(old).build()))
          .isInstanceOf(StatusRuntimeException.class);
      long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (cipherd
              .admin
              .getKey(GetKeyRequest.newBuilder().setKeyName("orders").build())
              .getKey()
              .getVersions(0)
              .getState()
          != KeyVersionState.KEY_VERSION_STATE_ENABLED) {
        assertThat(System.nanoTime()).as("the destruction is cancelled").isLessThan(deadline);
        Thread.sleep(10);
      }
      cipherd.close();
    }

    List<JsonObject> calls = AuditRecords.calls(log);
    JsonObject retire = AuditRecords.only(calls, "RetireKeyVersions");
    assertThat(retire.get("reason").getAsString()).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(retire.getAsJsonArray("inventories").toString())
        .isEqualTo(
            "[{\"key\":\"orders\",\"source\":\"postgres:users.email\","
                + "\"scan_time\":\"2026-11-24T08:00:00Z\",\"items_scanned\":1200,"
                + "\"versions\":{\"1\":3,\"2\":1197}}]");
    JsonObject decrypt = AuditRecords.only(calls, "Decrypt");
    // The server's own id; the caller's x-request-id only beside it.
    assertThat(decrypt.get("request_id").getAsString()).matches("[0-9a-f]{16}");
    assertThat(decrypt.get("client_request_id").getAsString()).isEqualTo("req-cold");
    assertThat(decrypt.getAsJsonArray("pending_destruction_uses").toString())
        .isEqualTo("[{\"key\":\"orders\",\"version\":1,\"items\":1}]");
    assertThat(AuditRecords.of(calls, "Encrypt").get(0).has("pending_destruction_uses")).isFalse();
    List<JsonObject> system =
        Files.readAllLines(log).stream()
            .map(line -> JsonParser.parseString(line).getAsJsonObject())
            .filter(line -> line.get("type").getAsString().equals("system"))
            .toList();
    assertThat(system).hasSize(1);
    assertThat(system.get(0).get("action").getAsString()).isEqualTo("CancelKeyVersionDestruction");
    assertThat(system.get(0).get("key").getAsString()).isEqualTo("orders");
    assertThat(system.get(0).getAsJsonArray("versions").toString()).isEqualTo("[1]");
    assertThat(system.get(0).get("request_id").getAsString())
        .isEqualTo(decrypt.get("request_id").getAsString());
    assertThat(system.get(0).has("client_request_id")).isFalse();
    assertThat(AuditTrailVerifier.verify(key, log).intact()).isTrue();
  }
}

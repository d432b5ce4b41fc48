package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static io.cipherd.server.api.KeyLifecycleApiTest.metadata;
import static io.cipherd.server.api.KeyLifecycleApiTest.refusal;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.util.Timestamps;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DataInventory;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.GetKeyCensusResponse;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.api.v1.VersionCount;
import io.cipherd.server.keys.SettableClock;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retirement that sees the data, over gRPC in process: an inventory of the stored data refuses a
 * retirement while it counts a ciphertext below the version asked, failed calls count as use of the
 * version they named, and a call that names a version pending destruction is counted and, when the
 * key's policy says so, cancels the destruction.
 */
class RetirementEvidenceApiTest {
  private static final String USES = "cipherd.key.version.pending.destruction.use";

  @TempDir Path dataDir;

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T09:00:00Z"));
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir, builder -> builder.clock(clock));
    cipherd.admin.createKey(CreateKeyRequest.newBuilder().setKeyName("orders").build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void inventory_withOneCiphertextBelowN_refusesRetirement_alsoValidateOnly() {
    cipherd.rotate("orders");
    cipherd.rotate("orders");
    clock.advance(Duration.ofDays(8)); // no traffic within the quiet period

    for (boolean validateOnly : new boolean[] {true, false}) {
      StatusRuntimeException refused =
          refusal(
              () ->
                  retire(
                      3,
                      validateOnly,
                      inventory("postgres:users.archive", Map.of(3, 500L)),
                      inventory("postgres:users.email", Map.of(2, 1L, 3, 9_999L))));

      assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSIONS_IN_USE");
      assertThat(metadata(refused))
          .isEqualTo(Map.of("key", "orders", "versions", "2", "source", "postgres:users.email"));
      assertThat(refused.getStatus().getDescription())
          .contains("inventory 'postgres:users.email'")
          .contains("still counts 1 ciphertext under v2")
          .contains("rewrap");
    }
    assertThat(getKey().getVersionsList())
        .extracting(version -> version.getState())
        .containsOnly(KeyVersionState.KEY_VERSION_STATE_ENABLED);
  }

  @Test
  void inventory_withOnlyVersionsAtOrAboveN_andZeroCountsBelow_allowsRetirement() {
    cipherd.rotate("orders");
    cipherd.rotate("orders");
    clock.advance(Duration.ofDays(8));

    RetireKeyVersionsResponse done =
        retire(
            3,
            false,
            inventory("postgres:users.email", Map.of(1, 0L, 3, 12L)),
            inventory("file:export.jsonl#email", Map.of(3, 4L)));

    assertThat(done.getRetiredVersionsList()).containsExactly(1, 2);
    assertThat(done.getKey().getPolicy().getMinDecryptionVersion()).isEqualTo(3);
  }

  @Test
  void inventories_areValidated_precisely() {
    cipherd.rotate("orders");
    clock.advance(Duration.ofDays(8));

    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        retire(
                            2,
                            true,
                            inventory("db", Map.of(1, 1L)).toBuilder()
                                .setKeyName("payments")
                                .build()))
                .getDescription())
        .contains("counts key 'payments', not 'orders'");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () -> retire(2, true, inventory("s".repeat(257), Map.of(2, 1L))))
                .getDescription())
        .contains("at most 256 characters");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () -> retire(2, true, inventory("db", Map.of(1, -1L))))
                .getDescription())
        .contains("must not be negative");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () -> retire(2, true, inventory("db", Map.of(0, 1L))))
                .getDescription())
        .contains("versions must be 1 or more");
    DataInventory twice =
        inventory("db", Map.of(2, 1L)).toBuilder()
            .addVersions(VersionCount.newBuilder().setVersion(2).setCiphertexts(3))
            .build();
    assertThat(
            failsWith(Status.Code.INVALID_ARGUMENT, () -> retire(2, true, twice)).getDescription())
        .contains("counted twice");
    DataInventory[] tooMany = new DataInventory[101];
    Arrays.fill(tooMany, inventory("db", Map.of(2, 1L)));
    assertThat(
            failsWith(Status.Code.INVALID_ARGUMENT, () -> retire(2, true, tooMany))
                .getDescription())
        .contains("at most 100");
  }

  @Test
  void failedRewrap_showsTheVersionInUse_andRetirementRefuses() {
    String old = cipherd.encrypt("orders", "email a@example.com", "users.email/7");
    cipherd.rotate("orders");
    cipherd.rotate("orders");
    clock.advance(Duration.ofDays(8));
    assertThat(census().getVersions(0).getInUse()).isFalse();

    // The rewrap that forgot the context: it fails, and fails again.
    for (int i = 0; i < 2; i++) {
      StatusRuntimeException failed =
          refusal(
              () ->
                  cipherd.crypto.reEncrypt(
                      ReEncryptRequest.newBuilder().setCiphertext(old).build()));
      assertThat(StatusMapperTest.reason(failed)).isEqualTo("DECRYPTION_FAILED");
    }

    GetKeyCensusResponse census = census();
    assertThat(census.getVersions(0).getVersion()).isEqualTo(1);
    assertThat(census.getVersions(0).getInUse()).isTrue();
    assertThat(census.getVersions(0).getUsage().getFailures()).isEqualTo(2);
    assertThat(census.getVersions(0).getUsage().getDecryptions()).isZero();
    assertThat(census.getVersions(0).getUsage().getLastUsedTime())
        .isEqualTo(Timestamps.fromMillis(clock.millis()));
    assertThat(census.getSafeMinDecryptionVersion()).isEqualTo(1);
    assertThat(getKey().getVersions(0).getUsage().getFailures()).isEqualTo(2);
    StatusRuntimeException refused = refusal(() -> retire(3, false));
    assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(metadata(refused)).isEqualTo(Map.of("key", "orders", "versions", "1"));
  }

  @Test
  void decryptBelowMinDecryptionVersion_countsAsAFailure_andRetirementRefuses() {
    String old = cipherd.encrypt("orders", "card 4111");
    cipherd.rotate("orders");
    cipherd.admin.updateKeyPolicy(
        UpdateKeyPolicyRequest.newBuilder()
            .setKeyName("orders")
            .setPolicy(KeyPolicy.newBuilder().setMinDecryptionVersion(2))
            .build());
    clock.advance(Duration.ofDays(8));

    assertThat(StatusMapperTest.reason(refusal(() -> cipherd.decrypt(old))))
        .isEqualTo("POLICY_DENIED");

    assertThat(getKey().getVersions(0).getUsage().getFailures()).isEqualTo(1);
    StatusRuntimeException refused = refusal(() -> retire(2, true));
    assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(metadata(refused)).containsEntry("versions", "1");
  }

  @Test
  void useOfAVersionPendingDestruction_isCounted_butCancelsNothingWithoutThePolicy() {
    String old = cipherd.encrypt("orders", "card 4111");
    cipherd.rotate("orders");
    schedule(1);
    double before = uses();

    for (int i = 0; i < 3; i++) {
      assertThat(StatusMapperTest.reason(refusal(() -> cipherd.decrypt(old))))
          .isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");
    }

    assertThat(uses() - before).isEqualTo(3);
    Key key = getKey();
    assertThat(key.getVersions(0).getUsage().getFailures()).isEqualTo(3);
    assertThat(key.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
  }

  @Test
  void useOfAVersionPendingDestruction_withCancelDestructionOnUse_cancelsIt_andTheRetrySucceeds()
      throws InterruptedException {
    String old = cipherd.encrypt("orders", "card 4111");
    cipherd.rotate("orders");
    Key updated =
        cipherd
            .admin
            .updateKeyPolicy(
                UpdateKeyPolicyRequest.newBuilder()
                    .setKeyName("orders")
                    .setPolicy(KeyPolicy.newBuilder().setCancelDestructionOnUse(true))
                    .build())
            .getKey();
    assertThat(updated.getPolicy().getCancelDestructionOnUse()).isTrue();
    schedule(1);
    double before = uses();

    // The call itself is still refused: the cancellation is written beside it.
    assertThat(StatusMapperTest.reason(refusal(() -> cipherd.decrypt(old))))
        .isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (getKey().getVersions(0).getState() != KeyVersionState.KEY_VERSION_STATE_ENABLED) {
      assertThat(System.nanoTime()).as("the destruction is cancelled").isLessThan(deadline);
      Thread.sleep(10);
    }
    assertThat(uses() - before).isEqualTo(1);
    assertThat(cipherd.decrypt(old)).isEqualTo("card 4111");
    assertThat(getKey().getPolicy().getCancelDestructionOnUse()).isTrue();
  }

  private double uses() {
    return cipherd.services.metrics().registry().get(USES).counter().count();
  }

  private static DataInventory inventory(String source, Map<Integer, Long> counts) {
    DataInventory.Builder inventory =
        DataInventory.newBuilder()
            .setKeyName("orders")
            .setSource(source)
            .setScanTime(Timestamps.fromSeconds(1_790_000_000L))
            .setItemsScanned(10_000);
    counts.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            count ->
                inventory.addVersions(
                    VersionCount.newBuilder()
                        .setVersion(count.getKey())
                        .setCiphertexts(count.getValue())));
    return inventory.build();
  }

  private RetireKeyVersionsResponse retire(
      int below, boolean validateOnly, DataInventory... inventories) {
    return cipherd.admin.retireKeyVersions(
        RetireKeyVersionsRequest.newBuilder()
            .setKeyName("orders")
            .setBelowVersion(below)
            .setValidateOnly(validateOnly)
            .addAllInventories(List.of(inventories))
            .build());
  }

  private GetKeyCensusResponse census() {
    return cipherd.admin.getKeyCensus(
        GetKeyCensusRequest.newBuilder().setKeyName("orders").build());
  }

  private void schedule(int version) {
    cipherd.admin.scheduleKeyVersionDestruction(
        ScheduleKeyVersionDestructionRequest.newBuilder()
            .setKeyName("orders")
            .addVersions(version)
            .build());
  }

  private Key getKey() {
    return cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("orders").build()).getKey();
  }
}

package io.cipherd.server.api;

import static io.cipherd.server.api.GrpcAssertions.failsWith;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.Durations;
import com.google.rpc.ErrorInfo;
import io.cipherd.api.v1.CancelKeyDeletionRequest;
import io.cipherd.api.v1.CancelKeyVersionDestructionRequest;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.GetKeyRequest;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyPolicy;
import io.cipherd.api.v1.KeyState;
import io.cipherd.api.v1.KeyVersionState;
import io.cipherd.api.v1.ListKeysRequest;
import io.cipherd.api.v1.ReEncryptRequest;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RetireKeyVersionsResponse;
import io.cipherd.api.v1.ScheduleKeyDeletionRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.UpdateKeyPolicyRequest;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.SettableClock;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lifecycle RPCs over gRPC in process, and what the crypto path answers after each: destroying
 * and deleting (through the key maintenance's sweep), tombstones, retirement, on the PKCS12 store.
 * Disabling across every crypto call is {@link DisabledKeyApiTest}'s.
 */
class KeyLifecycleApiTest {
  private static final Duration DAY = Duration.ofDays(1);

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
  void scheduledVersion_refusesToDecrypt_untilCancelled() {
    String old = cipherd.encrypt("orders", "card 4111");
    cipherd.rotate("orders");
    assertThat(cipherd.services.cipherPools().pool(CipherMode.GCM).getNumIdle()).isPositive();

    Key key = schedule(1, null);

    // The idle pooled ciphers, which may hold version 1's key schedule, are dropped with its bytes.
    assertThat(cipherd.services.cipherPools().pool(CipherMode.GCM).getNumIdle()).isZero();

    assertThat(key.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED);
    assertThat(key.getVersions(0).getDestroyTime().getSeconds())
        .isEqualTo(clock.instant().plus(Duration.ofDays(7)).getEpochSecond());
    assertThat(key.getVersions(1).getState()).isEqualTo(KeyVersionState.KEY_VERSION_STATE_ENABLED);
    StatusRuntimeException refused = refusal(() -> cipherd.decrypt(old));
    assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSION_DESTRUCTION_SCHEDULED");
    assertThat(metadata(refused)).isEqualTo(Map.of("key", "orders", "version", "1"));

    Key restored =
        cipherd
            .admin
            .cancelKeyVersionDestruction(
                CancelKeyVersionDestructionRequest.newBuilder()
                    .setKeyName("orders")
                    .addVersions(1)
                    .build())
            .getKey();

    assertThat(restored.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_ENABLED);
    assertThat(restored.getVersions(0).hasDestroyTime()).isFalse();
    assertThat(cipherd.decrypt(old)).isEqualTo("card 4111");
  }

  @Test
  void destroyedVersion_isKeyVersionDestroyed_neverADecryptionFailure_alsoAfterARestart()
      throws Exception {
    String old = cipherd.encrypt("orders", "card 4111");
    cipherd.rotate("orders");
    schedule(1, Duration.ofDays(2));
    clock.advance(Duration.ofDays(2));
    destroyDue();

    StatusRuntimeException decrypt = refusal(() -> cipherd.decrypt(old));
    StatusRuntimeException rewrap =
        refusal(
            () ->
                cipherd.crypto.reEncrypt(ReEncryptRequest.newBuilder().setCiphertext(old).build()));

    for (StatusRuntimeException refused : new StatusRuntimeException[] {decrypt, rewrap}) {
      assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
      assertThat(refused.getStatus().getDescription()).startsWith("key version destroyed");
      assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSION_DESTROYED");
    }
    // After a restart too: the store remembers, and preloading reads the current version only.
    cipherd.close();
    cipherd = InProcessCipherd.start(dataDir, builder -> builder.clock(clock));
    assertThat(cipherd.services.keys().preload(List.of("orders"))).isEqualTo(1);
    assertThat(StatusMapperTest.reason(refusal(() -> cipherd.decrypt(old))))
        .isEqualTo("KEY_VERSION_DESTROYED");
    Key key = getKey();
    assertThat(key.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTROYED);
    assertThat(key.getVersions(0).getDestroyTime().getSeconds())
        .isEqualTo(clock.instant().getEpochSecond());
    Status cancel =
        failsWith(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.admin.cancelKeyVersionDestruction(
                    CancelKeyVersionDestructionRequest.newBuilder()
                        .setKeyName("orders")
                        .addVersions(1)
                        .build()));
    assertThat(cancel.getDescription()).contains("version 1 of key 'orders'");
  }

  @Test
  void theCurrentVersion_shortOrMalformedWindows_andBadVersionLists_areRefusedPrecisely() {
    cipherd.rotate("orders");

    assertThat(failsWith(Status.Code.FAILED_PRECONDITION, () -> schedule(2, null)).getDescription())
        .isEqualTo("version 2 of key 'orders' is the current version; rotate the key first");
    assertThat(
            failsWith(Status.Code.INVALID_ARGUMENT, () -> schedule(1, Duration.ofHours(23)))
                .getDescription())
        .isEqualTo("pending_window must be between 24 hours and 3650 days, or absent for 7 days");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.scheduleKeyDeletion(
                            ScheduleKeyDeletionRequest.newBuilder()
                                .setKeyName("orders")
                                .setPendingWindow(Durations.fromSeconds(-5))
                                .build()))
                .getDescription())
        .isEqualTo("pending_window must not be negative, got -5 seconds");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.scheduleKeyVersionDestruction(
                            ScheduleKeyVersionDestructionRequest.newBuilder()
                                .setKeyName("orders")
                                .build()))
                .getDescription())
        .isEqualTo("versions must name at least one version");
    assertThat(
            failsWith(
                    Status.Code.INVALID_ARGUMENT,
                    () ->
                        cipherd.admin.scheduleKeyVersionDestruction(
                            ScheduleKeyVersionDestructionRequest.newBuilder()
                                .setKeyName("orders")
                                .addVersions(1)
                                .addVersions(1)
                                .build()))
                .getDescription())
        .isEqualTo("versions must not name a version twice");
    failsWith(Status.Code.NOT_FOUND, () -> schedule(9, null));
    assertThat(getKey().getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_ENABLED);
  }

  @Test
  void deletion_cancelledBringsTheKeyBackDisabled_andADeletedKeyStaysATombstone() {
    Key scheduled = scheduleDeletion();
    assertThat(scheduled.getState()).isEqualTo(KeyState.KEY_STATE_DELETION_SCHEDULED);
    assertThat(scheduled.getDeleteTime().getSeconds())
        .isEqualTo(clock.instant().plus(DAY).getEpochSecond());
    assertThat(StatusMapperTest.reason(refusal(() -> cipherd.encrypt("orders", "x"))))
        .isEqualTo("KEY_DISABLED");
    failsWith(Status.Code.FAILED_PRECONDITION, () -> cipherd.rotate("orders"));

    Key back =
        cipherd
            .admin
            .cancelKeyDeletion(CancelKeyDeletionRequest.newBuilder().setKeyName("orders").build())
            .getKey();
    assertThat(back.getState()).isEqualTo(KeyState.KEY_STATE_DISABLED);
    assertThat(back.hasDeleteTime()).isFalse();

    scheduleDeletion();
    clock.advance(DAY);
    destroyDue();

    Status create =
        failsWith(
            Status.Code.ALREADY_EXISTS,
            () ->
                cipherd.admin.createKey(
                    CreateKeyRequest.newBuilder().setKeyName("orders").build()));
    assertThat(create.getDescription()).contains("belongs to a deleted key");
    Status importing =
        failsWith(
            Status.Code.ALREADY_EXISTS,
            () ->
                cipherd.admin.importKey(
                    ImportKeyRequest.newBuilder()
                        .setKeyName("orders")
                        .setKeyMaterial(ByteString.copyFrom(new byte[32]))
                        .build()));
    assertThat(importing.getDescription()).contains("belongs to a deleted key");
    failsWith(Status.Code.FAILED_PRECONDITION, () -> cipherd.rotate("orders"));
    failsWith(
        Status.Code.FAILED_PRECONDITION,
        () ->
            cipherd.admin.updateKeyPolicy(
                UpdateKeyPolicyRequest.newBuilder()
                    .setKeyName("orders")
                    .setPolicy(KeyPolicy.getDefaultInstance())
                    .build()));
    Key tombstone = getKey();
    assertThat(tombstone.getState()).isEqualTo(KeyState.KEY_STATE_DELETED);
    assertThat(tombstone.getVersions(0).getState())
        .isEqualTo(KeyVersionState.KEY_VERSION_STATE_DESTROYED);
    assertThat(cipherd.admin.listKeys(ListKeysRequest.getDefaultInstance()).getKeysList())
        .singleElement()
        .extracting(Key::getState)
        .isEqualTo(KeyState.KEY_STATE_DELETED);
  }

  @Test
  void retire_refusesWhileAnOldVersionIsInUse_thenPlans_thenRetires() {
    cipherd.encrypt("orders", "recent");
    cipherd.rotate("orders");
    cipherd.rotate("orders");

    StatusRuntimeException inUse = refusal(() -> retire(3, false));
    assertThat(inUse.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(StatusMapperTest.reason(inUse)).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(metadata(inUse)).isEqualTo(Map.of("key", "orders", "versions", "1"));
    assertThat(inUse.getStatus().getDescription()).contains("cannot retire version 1:");

    clock.advance(Duration.ofDays(8));
    RetireKeyVersionsResponse plan = retire(3, true);

    assertThat(plan.getRetiredVersionsList()).containsExactly(1, 2);
    assertThat(plan.getDestroyTime().getSeconds())
        .isEqualTo(clock.instant().plus(Duration.ofDays(7)).getEpochSecond());
    assertThat(plan.getKey().getPolicy().getMinDecryptionVersion()).isZero();
    assertThat(plan.getKey().getVersionsList())
        .extracting(version -> version.getState())
        .containsOnly(KeyVersionState.KEY_VERSION_STATE_ENABLED);
    assertThat(getKey().getPolicy().getMinDecryptionVersion()).isZero();

    RetireKeyVersionsResponse done = retire(3, false);

    assertThat(done.getRetiredVersionsList()).containsExactly(1, 2);
    assertThat(done.getKey().getPolicy().getMinDecryptionVersion()).isEqualTo(3);
    assertThat(done.getKey().getVersionsList())
        .extracting(version -> version.getState())
        .containsExactly(
            KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED,
            KeyVersionState.KEY_VERSION_STATE_DESTRUCTION_SCHEDULED,
            KeyVersionState.KEY_VERSION_STATE_ENABLED);
    assertThat(getKey().getPolicy()).isEqualTo(done.getKey().getPolicy());
    assertThat(getKey().getVersions(0).getDestroyTime()).isEqualTo(done.getDestroyTime());
    assertThat(failsWith(Status.Code.INVALID_ARGUMENT, () -> retire(1, true)).getDescription())
        .contains("below_version must be at least 2");
    failsWith(Status.Code.FAILED_PRECONDITION, () -> retire(4, true));
  }

  private Key getKey() {
    return cipherd.admin.getKey(GetKeyRequest.newBuilder().setKeyName("orders").build()).getKey();
  }

  private Key schedule(int version, Duration window) {
    ScheduleKeyVersionDestructionRequest.Builder request =
        ScheduleKeyVersionDestructionRequest.newBuilder().setKeyName("orders").addVersions(version);
    if (window != null) {
      request.setPendingWindow(Durations.fromSeconds(window.toSeconds()));
    }
    return cipherd.admin.scheduleKeyVersionDestruction(request.build()).getKey();
  }

  private Key scheduleDeletion() {
    return cipherd
        .admin
        .scheduleKeyDeletion(
            ScheduleKeyDeletionRequest.newBuilder()
                .setKeyName("orders")
                .setPendingWindow(Durations.fromDays(1))
                .build())
        .getKey();
  }

  private RetireKeyVersionsResponse retire(int below, boolean validateOnly) {
    return cipherd.admin.retireKeyVersions(
        RetireKeyVersionsRequest.newBuilder()
            .setKeyName("orders")
            .setBelowVersion(below)
            .setValidateOnly(validateOnly)
            .build());
  }

  /** The key maintenance's sweep carries out what is due, as it would every minute. */
  private void destroyDue() {
    cipherd.services.maintainKeysNow();
    assertThat(
            cipherd
                .services
                .metrics()
                .registry()
                .get("cipherd.key.versions.destroyed")
                .counter()
                .count())
        .isPositive();
  }

  static StatusRuntimeException refusal(ThrowingCallable call) {
    StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call);
    assertThat(e).as("expected the call to fail").isNotNull();
    return e;
  }

  static Map<String, String> metadata(StatusRuntimeException e) {
    try {
      return StatusProto.fromThrowable(e).getDetails(0).unpack(ErrorInfo.class).getMetadataMap();
    } catch (InvalidProtocolBufferException notErrorInfo) {
      throw new AssertionError("the detail is not an ErrorInfo", notErrorInfo);
    }
  }
}

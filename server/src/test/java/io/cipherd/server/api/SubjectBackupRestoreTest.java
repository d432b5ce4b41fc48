package io.cipherd.server.api;

import static io.cipherd.server.api.SubjectBoundApiTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.util.Durations;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RetireKeyVersionsRequest;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.ScheduleKeyVersionDestructionRequest;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.cipherd.server.subjects.SubjectRecord;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Erased stays erased, even from a backup (issue 32, item 2), end to end on the in-memory store:
 * copy the subject table, erase A, rotate, sweep, destroy the old version, restore the copy merged
 * into the live table; A stays undecryptable, B decrypts. And the lifecycle refuses to retire or
 * destroy a version that still wraps live subject keys.
 */
class SubjectBackupRestoreTest {
  private static final ByteString EMAIL = ByteString.copyFromUtf8("ada@example.com");

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T09:00:00Z"));
  private final MemorySubjectStore store = new MemorySubjectStore();

  @TempDir Path dataDir;
  private InProcessCipherd cipherd;

  @BeforeEach
  void start() throws Exception {
    cipherd = InProcessCipherd.start(dataDir, builder -> builder.clock(clock).subjectStore(store));
    cipherd.admin.createKey(
        CreateKeyRequest.newBuilder().setKeyName("users").setMode(Mode.MODE_GCM).build());
  }

  @AfterEach
  void stop() throws Exception {
    cipherd.close();
  }

  @Test
  void aBackupRestoredAfterTheOldVersionIsDestroyed_revivesNoErasedSubject() {
    String a = encrypt("user-a");
    String b = encrypt("user-b");
    // The backup: every row of the subject table as it is now (both live, wrapped under v1).
    List<SubjectRecord> backup = store.wrappedBelow("users", Integer.MAX_VALUE, null, 1000);
    assertThat(backup).hasSize(2);

    SubjectServiceGrpc.newBlockingStub(cipherd.channel)
        .eraseSubject(
            EraseSubjectRequest.newBuilder().setKeyName("users").setSubject("user-a").build());
    cipherd.admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName("users").build());
    cipherd.services.sweepSubjectsNow();
    assertThat(store.countByWrapVersion("users")).containsExactly(Map.entry(2, 1L));

    cipherd.admin.scheduleKeyVersionDestruction(
        ScheduleKeyVersionDestructionRequest.newBuilder()
            .setKeyName("users")
            .addVersions(1)
            .setPendingWindow(Durations.fromDays(1))
            .build());
    clock.advance(Duration.ofDays(2));
    cipherd.services.maintainKeysNow();

    // The restore: the copy's rows merged into the live table where no live row is; A's tombstone
    // is replaced by its row from before the erasure, live again, wrapped under v1.
    store.createIfAbsent(backup);
    assertThat(store.findByRef(List.of(backup.get(0).ref(), backup.get(1).ref())).values())
        .allSatisfy(row -> assertThat(row.isErased()).isFalse());
    cipherd.services.subjectKeys().forgetKey("users");

    StatusRuntimeException refused = failure(Status.Code.FAILED_PRECONDITION, () -> decrypt(a));
    // The revived row names its key by a version whose bytes are gone: nothing unwraps it.
    assertThat(StatusMapperTest.reason(refused)).isEqualTo("KEY_VERSION_DESTROYED");
    System.out.println(
        "backup-restore: A after restore -> "
            + refused.getStatus().getCode()
            + " "
            + StatusMapperTest.reason(refused)
            + "; B after restore -> "
            + decrypt(b).toStringUtf8());
    assertThat(decrypt(b)).isEqualTo(EMAIL);
  }

  @Test
  void aVersionThatStillWrapsLiveSubjectKeys_isNotRetiredNorDestroyed_untilTheSweep() {
    encrypt("user-a");
    // Rotated through the store's admin, so no sweep runs in the background.
    cipherd.services.admin().rotate("users", KeyTemplate.defaults());

    StatusRuntimeException destroy =
        failure(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.admin.scheduleKeyVersionDestruction(
                    ScheduleKeyVersionDestructionRequest.newBuilder()
                        .setKeyName("users")
                        .addVersions(1)
                        .build()));
    assertThat(StatusMapperTest.reason(destroy)).isEqualTo("KEY_VERSIONS_IN_USE");
    assertThat(destroy.getStatus().getDescription()).contains("1 subject key wrapped under v1");
    StatusRuntimeException retire =
        failure(
            Status.Code.FAILED_PRECONDITION,
            () ->
                cipherd.admin.retireKeyVersions(
                    RetireKeyVersionsRequest.newBuilder()
                        .setKeyName("users")
                        .setBelowVersion(2)
                        .setValidateOnly(true)
                        .build()));
    assertThat(StatusMapperTest.reason(retire)).isEqualTo("KEY_VERSIONS_IN_USE");

    // The census counts v1 in use while it wraps a live subject key, unused as it is.
    clock.advance(Duration.ofDays(2));
    var census =
        cipherd.admin.getKeyCensus(
            GetKeyCensusRequest.newBuilder()
                .setKeyName("users")
                .setQuietPeriod(Durations.fromSeconds(1))
                .build());
    assertThat(census.getVersions(0).getInUse()).isTrue();
    assertThat(census.getSafeMinDecryptionVersion()).isEqualTo(1);

    assertThat(cipherd.services.sweepSubjectsNow()).isEqualTo(1);
    cipherd.admin.scheduleKeyVersionDestruction(
        ScheduleKeyVersionDestructionRequest.newBuilder()
            .setKeyName("users")
            .addVersions(1)
            .build());
  }

  private String encrypt(String subject) {
    return cipherd
        .crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName("users")
                .setSubject(subject)
                .setPlaintext(EMAIL)
                .build())
        .getCiphertext();
  }

  private ByteString decrypt(String ciphertext) {
    return cipherd
        .crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext();
  }
}

package io.cipherd.server.subjectstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectRewrap;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A copy of the subject table taken before an erasure, put back after the erasure and a sweep to a
 * new version: the store keeps each row's wrapping version as the copy had it, so a revived row is
 * wrapped under the old version and unwraps nothing once that version is destroyed (the server's
 * test shows that end to end). The copy is taken and restored with SQL, as an operator's backup
 * would be.
 */
@Tag("postgres")
class PostgresBackupRestoreTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Instant T0 = Instant.ofEpochMilli(1_700_000_000_000L);

  private String database;
  private JdbcSubjectStore store;
  private SubjectRecord a;
  private SubjectRecord b;

  @BeforeEach
  void backUpThenEraseAThenSweepToVersion2() throws Exception {
    database = TestPostgres.get().newDatabase();
    store = JdbcSubjectStores.open(TestPostgres.get().config(database, 2));
    a = live(hash());
    b = live(hash());
    store.createIfAbsent(List.of(a, b));
    sql("CREATE TABLE backup_copy AS SELECT * FROM cipherd_subject_key");

    store.erase("users", List.of(a.subjectHash()), T0.plusSeconds(60));
    // The sweep after a rotation to version 2: every live row below 2 rewrapped under 2.
    List<SubjectRecord> below = store.wrappedBelow("users", 2, null, 100);
    assertThat(below).extracting(SubjectRecord::ref).containsExactly(b.ref());
    assertThat(
            store.rewrap(
                below.stream()
                    .map(row -> new SubjectRewrap(row.ref(), 1, "<users/v2:gcm>" + row.ref(), 2))
                    .toList()))
        .isEqualTo(1);
    assertThat(store.countByWrapVersion("users")).isEqualTo(Map.of(2, 1L));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void copyMergedBack_revivesNothing_theTombstoneKeepsItsReference() throws Exception {
    int restored =
        sql("INSERT INTO cipherd_subject_key SELECT * FROM backup_copy ON CONFLICT DO NOTHING");

    assertThat(restored).isZero();
    Map<SubjectRef, SubjectRecord> rows = store.findByRef(List.of(a.ref(), b.ref()));
    assertThat(rows.get(a.ref()).isErased()).isTrue();
    assertThat(rows.get(a.ref()).wrappedKey()).isNull();
    assertThat(rows.get(b.ref()).wrapVersion()).isEqualTo(2);
    assertThat(store.find("users", List.of(a.subjectHash())).get(a.subjectHash()).isErased())
        .isTrue();
  }

  @Test
  void copyRestoredOverTheTable_bringsAsRowBack_wrappedUnderTheOldVersionOnly() throws Exception {
    // A point-in-time restore: the table as the copy had it.
    sql("DELETE FROM cipherd_subject_key");
    assertThat(sql("INSERT INTO cipherd_subject_key SELECT * FROM backup_copy")).isEqualTo(2);

    SubjectRecord revived = store.find("users", List.of(a.subjectHash())).get(a.subjectHash());
    assertThat(revived.isErased()).isFalse();
    assertThat(revived.ref()).isEqualTo(a.ref());
    // Wrapped under version 1, as when the copy was taken: once version 1 is destroyed (the
    // sweep moved every surviving subject off it), this row unwraps nothing.
    assertThat(revived.wrapVersion()).isEqualTo(1);
    assertThat(revived.wrappedKey()).isEqualTo(a.wrappedKey()).startsWith("<users/v1:");
    // B's row is the copy's too: the restore undid its sweep, so it is back under version 1, and
    // the next sweep lists both rows; nothing in the store claims a version 2 wrapping it lacks.
    assertThat(store.countByWrapVersion("users")).isEqualTo(Map.of(1, 2L));
    assertThat(store.wrappedBelow("users", 2, null, 100))
        .extracting(SubjectRecord::ref)
        .containsExactlyInAnyOrder(a.ref(), b.ref());
  }

  private int sql(String statement) throws Exception {
    try (Connection connection = TestPostgres.get().connect(database);
        Statement run = connection.createStatement()) {
      return run.executeUpdate(statement);
    }
  }

  private static SubjectHash hash() {
    byte[] bytes = new byte[SubjectHash.LENGTH];
    RANDOM.nextBytes(bytes);
    return SubjectHash.of(bytes);
  }

  private static SubjectRecord live(SubjectHash subject) {
    SubjectRef ref = SubjectRef.random(RANDOM);
    return SubjectRecord.live(ref, "users", subject, "<users/v1:gcm>" + ref, 1, T0);
  }
}

package io.cipherd.server.subjectstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Two stores with pools of their own on one PostgreSQL, as two cipherd replicas have: the store
 * caches nothing, so what one writes the other reads at once; and a database that fails becomes the
 * store's UNAVAILABLE error, without a row's values in its message.
 */
@Tag("postgres")
class PostgresReplicasTest {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Instant T0 = Instant.ofEpochMilli(1_700_000_000_000L);

  private String database;
  private JdbcSubjectStore one;
  private JdbcSubjectStore two;

  @BeforeEach
  void open() throws Exception {
    database = TestPostgres.get().newDatabase();
    one = JdbcSubjectStores.open(TestPostgres.get().config(database, 2));
    two = JdbcSubjectStores.open(TestPostgres.get().config(database, 2));
  }

  @AfterEach
  void close() {
    one.close();
    two.close();
  }

  @Test
  void erasureThroughOneReplica_isSeenByTheOtherAtOnce() {
    SubjectRecord row = live(hash());
    one.createIfAbsent(List.of(row));
    assertThat(two.findByRef(List.of(row.ref())).get(row.ref()).isErased()).isFalse();

    List<SubjectErasure> erased = one.erase("users", List.of(row.subjectHash()), T0);

    assertThat(erased.getFirst().outcome()).isEqualTo(SubjectErasure.Outcome.ERASED);
    SubjectRecord seen = two.findByRef(List.of(row.ref())).get(row.ref());
    assertThat(seen.isErased()).isTrue();
    assertThat(seen.wrappedKey()).isNull();
    assertThat(two.find("users", List.of(row.subjectHash())).get(row.subjectHash()).erased())
        .isEqualTo(T0);
  }

  @Test
  void twoReplicasErasingOneSubjectAtOnce_oneErasesIt_theOtherFindsItErased() throws Exception {
    SubjectRecord row = live(hash());
    one.createIfAbsent(List.of(row));
    CyclicBarrier start = new CyclicBarrier(2);

    CompletableFuture<SubjectErasure> first =
        CompletableFuture.supplyAsync(() -> erase(one, row, start, T0));
    CompletableFuture<SubjectErasure> second =
        CompletableFuture.supplyAsync(() -> erase(two, row, start, T0.plusMillis(1)));

    List<SubjectErasure.Outcome> outcomes = List.of(first.get().outcome(), second.get().outcome());
    assertThat(outcomes)
        .containsExactlyInAnyOrder(
            SubjectErasure.Outcome.ERASED, SubjectErasure.Outcome.ALREADY_ERASED);
    SubjectErasure winner =
        first.get().outcome() == SubjectErasure.Outcome.ERASED ? first.get() : second.get();
    SubjectErasure loser = winner == first.get() ? second.get() : first.get();
    assertThat(loser.erased()).isEqualTo(winner.erased());
  }

  private static SubjectErasure erase(
      JdbcSubjectStore store, SubjectRecord row, CyclicBarrier start, Instant now) {
    try {
      start.await();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    return store.erase("users", List.of(row.subjectHash()), now).getFirst();
  }

  @Test
  void databaseError_isUnavailable_withoutTheRowsValuesInItsMessage() throws Exception {
    SubjectRecord row = live(hash());
    one.createIfAbsent(List.of(row));
    try (Connection admin = TestPostgres.get().connect(database);
        Statement statement = admin.createStatement()) {
      statement.execute("ALTER TABLE cipherd_subject_key RENAME TO gone");
    }

    assertThatThrownBy(() -> two.find("users", List.of(row.subjectHash())))
        .isInstanceOf(SubjectStoreUnavailableException.class)
        .hasMessage("subject store: find failed (SQL state 42P01)");
    assertThatThrownBy(() -> one.createIfAbsent(List.of(row)))
        .isInstanceOf(SubjectStoreUnavailableException.class)
        .message()
        .doesNotContain(HexFormat.of().formatHex(row.subjectHash().bytes()))
        .doesNotContain(row.ref().toString());
  }

  @Test
  void unreachableDatabase_isUnavailable_atOpen() {
    SubjectStoreConfig config =
        new SubjectStoreConfig(
            "jdbc:postgresql://127.0.0.1:1/none?password=not-this", "u", null, 1, null);

    assertThatThrownBy(() -> JdbcSubjectStores.open(config))
        .isInstanceOf(SubjectStoreUnavailableException.class)
        .hasMessageStartingWith(
            "subject store: cannot connect to jdbc:postgresql://127.0.0.1:1/none:")
        .message()
        .doesNotContain("not-this");
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

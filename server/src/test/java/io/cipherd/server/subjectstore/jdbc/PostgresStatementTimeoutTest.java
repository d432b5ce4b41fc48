package io.cipherd.server.subjectstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A database that holds a statement (here another session's lock on the table, as a migration or a
 * VACUUM FULL would) holds a call no longer than the statement timeout: it fails UNAVAILABLE, its
 * connection goes back to the pool, and the store serves again once the lock is gone.
 */
@Tag("postgres")
class PostgresStatementTimeoutTest {
  /** What one blocked statement may take at most with a 1 s timeout: the cancel, and slack. */
  private static final Duration BUDGET = Duration.ofSeconds(5);

  @Test
  void aStatementBlockedByALockHeldElsewhere_failsUnavailableAfterTheTimeout_andThePoolRecovers()
      throws Exception {
    TestPostgres postgres = TestPostgres.get();
    String database = postgres.newDatabase();
    SubjectStoreConfig pooled = postgres.config(database, 2);
    SubjectStoreConfig config =
        new SubjectStoreConfig(
            pooled.url(),
            pooled.user(),
            pooled.password(),
            pooled.poolSize(),
            null,
            Duration.ofSeconds(1));
    SecureRandom random = new SecureRandom();
    SubjectRef ref = SubjectRef.random(random);
    byte[] hash = new byte[32];
    random.nextBytes(hash);
    SubjectHash subject = SubjectHash.of(hash);

    try (JdbcSubjectStore store = JdbcSubjectStores.open(config);
        Connection locker = postgres.connect(database)) {
      assertThat(store.findByRef(List.of(ref))).isEmpty();
      locker.setAutoCommit(false);
      try (Statement statement = locker.createStatement()) {
        statement.execute("LOCK TABLE " + JdbcSubjectStore.TABLE + " IN ACCESS EXCLUSIVE MODE");
      }

      // More blocked calls than the pool has connections: each gives its connection back.
      for (int i = 0; i < 3; i++) {
        assertTimesOut("findByRef", () -> store.findByRef(List.of(ref)));
      }
      assertTimesOut("find", () -> store.find("users", List.of(subject)));
      assertTimesOut("erase", () -> store.erase("users", List.of(subject), Instant.now()));

      locker.rollback();
      assertThat(store.findByRef(List.of(ref))).isEmpty();
      assertThat(store.erase("users", List.of(subject), Instant.now())).hasSize(1);
    }
  }

  private static void assertTimesOut(String operation, ThrowingCallable call) {
    long start = System.nanoTime();
    assertThatThrownBy(call)
        .isInstanceOf(SubjectStoreUnavailableException.class)
        .hasMessage(
            "subject store: "
                + operation
                + " timed out after 1 s (--subject-store-statement-timeout): the database did not"
                + " answer");
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(900)).isLessThan(BUDGET);
  }
}

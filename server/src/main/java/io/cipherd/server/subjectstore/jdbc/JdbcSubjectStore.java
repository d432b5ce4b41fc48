package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectRewrap;
import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import javax.sql.DataSource;

/**
 * The subject store on a SQL database through JDBC: PostgreSQL, or an embedded SQLite file, with
 * the same statements. Every call is one statement (a batch of subjects is one IN list or one
 * multi-row VALUES, never a statement per subject); {@link #createIfAbsent} and {@link #erase} add
 * a second only for the subjects the first did not settle (another replica's row, or nothing to
 * erase). Nothing is cached: a row another replica changed is read as it is now.
 *
 * <p>The SQL is what PostgreSQL, SQLite 3.35+, CockroachDB and YugabyteDB all accept: {@code INSERT
 * ... ON CONFLICT (columns) WHERE predicate DO NOTHING RETURNING} on the partial unique index,
 * {@code UPDATE ... RETURNING}, {@code UPDATE ... FROM (VALUES ...)} whose columns are named {@code
 * column1..n} on all four, row-value IN lists, and bytes compared byte by byte. It avoids what one
 * of them lacks: arrays and {@code = ANY(?)} (SQLite), data-modifying CTEs (SQLite), {@code MERGE}
 * (SQLite, CockroachDB).
 */
public final class JdbcSubjectStore implements SubjectStore {
  static final String TABLE = "cipherd_subject_key";

  /** Longest key name the schema holds (VARCHAR(64)). */
  static final int MAX_KEY_NAME = 64;

  /**
   * Most bind parameters in one statement: under SQLite's 32766 and PostgreSQL's 65535. A call
   * larger than that (more than the server's largest batch) is split into statements this size.
   */
  static final int MAX_PARAMETERS = 30_000;

  /** Tries of a statement the database aborted for a deadlock or a serialization conflict. */
  static final int ATTEMPTS = 3;

  private static final Set<String> RETRIED_STATES = Set.of("40P01", "40001");

  /** PostgreSQL's SQL state for a statement cancelled, as the query timeout cancels it. */
  private static final String QUERY_CANCELED = "57014";

  /**
   * The order rows are inserted in: the same on every replica, so two inserts of overlapping
   * subjects take the unique index's locks in one order and cannot deadlock.
   */
  private static final Comparator<SubjectRecord> LOCK_ORDER =
      Comparator.comparing(SubjectRecord::keyName)
          .thenComparing(row -> row.subjectHash().bytes(), Arrays::compareUnsigned);

  private static final String COLUMNS =
      "ref, key_name, subject_hash, wrap_version, wrapped_key, created_ms, erased_ms";

  private final DataSource dataSource;
  private final AutoCloseable pool;
  private final int statementTimeoutSeconds;

  /**
   * A store on {@code dataSource}, whose schema is migrated already; {@code pool} is closed by
   * {@link #close()}. Each statement waits at most {@code statementTimeoutSeconds} for the database
   * (JDBC's query timeout: pgjdbc has PostgreSQL cancel it, sqlite-jdbc waits that long for another
   * writer's lock), then fails as the database being unavailable.
   */
  public JdbcSubjectStore(DataSource dataSource, AutoCloseable pool, int statementTimeoutSeconds) {
    this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    this.pool = Objects.requireNonNull(pool, "pool");
    if (statementTimeoutSeconds < 1) {
      throw new IllegalArgumentException(
          "a statement timeout is at least 1 s, got " + statementTimeoutSeconds);
    }
    this.statementTimeoutSeconds = statementTimeoutSeconds;
  }

  @Override
  public Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects) {
    checkKeyName(keyName);
    List<SubjectHash> distinct = distinct(subjects);
    Map<SubjectHash, SubjectRecord> found = new HashMap<>();
    for (List<SubjectHash> chunk : chunks(distinct, 1, 1)) {
      String sql =
          "SELECT "
              + COLUMNS
              + " FROM "
              + TABLE
              + " WHERE key_name = ? AND subject_hash IN ("
              + placeholders(chunk.size())
              + ")";
      for (SubjectRecord row :
          query(
              "find",
              sql,
              statement -> {
                int i = 1;
                statement.setString(i++, keyName);
                for (SubjectHash subject : chunk) {
                  statement.setBytes(i++, subject.bytes());
                }
              })) {
        SubjectRecord before = found.get(row.subjectHash());
        if (before == null || better(row, before)) {
          found.put(row.subjectHash(), row);
        }
      }
    }
    return found;
  }

  /** A live row wins over a tombstone; of two tombstones the later erasure. */
  private static boolean better(SubjectRecord row, SubjectRecord than) {
    if (!row.isErased()) {
      return true;
    }
    return than.isErased() && row.erased().isAfter(than.erased());
  }

  @Override
  public Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    List<SubjectRef> distinct = distinct(refs);
    Map<SubjectRef, SubjectRecord> found = new HashMap<>();
    for (List<SubjectRef> chunk : chunks(distinct, 0, 1)) {
      String sql =
          "SELECT "
              + COLUMNS
              + " FROM "
              + TABLE
              + " WHERE ref IN ("
              + placeholders(chunk.size())
              + ")";
      for (SubjectRecord row :
          query(
              "findByRef",
              sql,
              statement -> {
                int i = 1;
                for (SubjectRef ref : chunk) {
                  statement.setBytes(i++, ref.bytes());
                }
              })) {
        found.put(row.ref(), row);
      }
    }
    return found;
  }

  @Override
  public Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows) {
    Objects.requireNonNull(rows, "rows");
    // One candidate per subject and key: the first given.
    Map<LiveKey, SubjectRecord> wanted = new LinkedHashMap<>();
    for (SubjectRecord row : rows) {
      Objects.requireNonNull(row, "row");
      if (row.isErased()) {
        throw new IllegalArgumentException("only live rows are created");
      }
      checkKeyName(row.keyName());
      wanted.putIfAbsent(new LiveKey(row.keyName(), row.subjectHash()), row);
    }
    Map<SubjectHash, SubjectRecord> live = new HashMap<>();
    // A live row another replica stored can be erased between our insert and our read; then the
    // subject has no live row and we insert again. Three rounds settle all but a pathological race.
    for (int round = 0; round < 3 && !wanted.isEmpty(); round++) {
      Set<SubjectRef> inserted = insert(wanted.values().stream().sorted(LOCK_ORDER).toList());
      List<LiveKey> others = new ArrayList<>();
      for (Map.Entry<LiveKey, SubjectRecord> entry : wanted.entrySet()) {
        if (inserted.contains(entry.getValue().ref())) {
          live.put(entry.getKey().subject(), entry.getValue());
        } else {
          others.add(entry.getKey());
        }
      }
      wanted.keySet().retainAll(others);
      for (SubjectRecord row : findLive(others)) {
        live.put(row.subjectHash(), row);
        wanted.remove(new LiveKey(row.keyName(), row.subjectHash()));
      }
    }
    if (!wanted.isEmpty()) {
      throw new SubjectStoreUnavailableException(
          "subject store: "
              + wanted.size()
              + " subjects were erased and created again by other callers while this call created"
              + " them; try again");
    }
    return live;
  }

  /** Inserts the rows whose subject has no live row; returns the references inserted. */
  private Set<SubjectRef> insert(List<SubjectRecord> rows) {
    Set<SubjectRef> inserted = new HashSet<>();
    for (List<SubjectRecord> chunk : chunks(rows, 0, 6)) {
      // The arbiter is the partial unique index: a tombstone does not conflict, a live row does.
      String sql =
          "INSERT INTO "
              + TABLE
              + " (ref, key_name, subject_hash, wrap_version, wrapped_key, created_ms) VALUES "
              + rows(chunk.size(), 6)
              + " ON CONFLICT (key_name, subject_hash) WHERE erased_ms IS NULL DO NOTHING"
              + " RETURNING ref";
      run(
          "createIfAbsent",
          sql,
          statement -> {
            int i = 1;
            for (SubjectRecord row : chunk) {
              statement.setBytes(i++, row.ref().bytes());
              statement.setString(i++, row.keyName());
              statement.setBytes(i++, row.subjectHash().bytes());
              statement.setInt(i++, row.wrapVersion());
              statement.setString(i++, row.wrappedKey());
              statement.setLong(i++, row.created().toEpochMilli());
            }
            try (ResultSet result = statement.executeQuery()) {
              while (result.next()) {
                inserted.add(SubjectRef.of(result.getBytes(1)));
              }
            }
            return null;
          });
    }
    return inserted;
  }

  /** The live rows of these subjects (a row-value IN list over key name and hash). */
  private List<SubjectRecord> findLive(List<LiveKey> subjects) {
    List<SubjectRecord> live = new ArrayList<>();
    for (List<LiveKey> chunk : chunks(subjects, 0, 2)) {
      String sql =
          "SELECT "
              + COLUMNS
              + " FROM "
              + TABLE
              + " WHERE erased_ms IS NULL AND (key_name, subject_hash) IN ("
              + rows(chunk.size(), 2)
              + ")";
      live.addAll(
          query(
              "createIfAbsent",
              sql,
              statement -> {
                int i = 1;
                for (LiveKey subject : chunk) {
                  statement.setString(i++, subject.keyName());
                  statement.setBytes(i++, subject.subject().bytes());
                }
              }));
    }
    return live;
  }

  @Override
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now) {
    checkKeyName(keyName);
    Objects.requireNonNull(now, "now");
    List<SubjectHash> distinct = distinct(subjects);
    long nowMs = now.toEpochMilli();
    Map<SubjectHash, List<SubjectRef>> erasedNow = new HashMap<>();
    for (List<SubjectHash> chunk : chunks(distinct, 2, 1)) {
      String sql =
          "UPDATE "
              + TABLE
              + " SET wrapped_key = NULL, wrap_version = NULL, erased_ms = ?"
              + " WHERE key_name = ? AND erased_ms IS NULL AND subject_hash IN ("
              + placeholders(chunk.size())
              + ") RETURNING subject_hash, ref";
      run(
          "erase",
          sql,
          statement -> {
            int i = 1;
            statement.setLong(i++, nowMs);
            statement.setString(i++, keyName);
            for (SubjectHash subject : chunk) {
              statement.setBytes(i++, subject.bytes());
            }
            try (ResultSet result = statement.executeQuery()) {
              while (result.next()) {
                erasedNow
                    .computeIfAbsent(SubjectHash.of(result.getBytes(1)), s -> new ArrayList<>())
                    .add(SubjectRef.of(result.getBytes(2)));
              }
            }
            return null;
          });
    }
    List<SubjectHash> rest = distinct.stream().filter(s -> !erasedNow.containsKey(s)).toList();
    Map<SubjectHash, Instant> erasedBefore = latestErasures(keyName, rest);

    List<SubjectErasure> results = new ArrayList<>(subjects.size());
    Set<SubjectHash> reported = new HashSet<>();
    for (SubjectHash subject : subjects) {
      List<SubjectRef> refs = erasedNow.get(subject);
      if (refs != null) {
        // A subject named twice is erased once: the second mention finds it erased by the first.
        results.add(
            reported.add(subject)
                ? new SubjectErasure(subject, SubjectErasure.Outcome.ERASED, now, refs)
                : new SubjectErasure(
                    subject, SubjectErasure.Outcome.ALREADY_ERASED, now, List.of()));
      } else if (erasedBefore.containsKey(subject)) {
        results.add(
            new SubjectErasure(
                subject,
                SubjectErasure.Outcome.ALREADY_ERASED,
                erasedBefore.get(subject),
                List.of()));
      } else {
        results.add(new SubjectErasure(subject, SubjectErasure.Outcome.NOT_FOUND, null, List.of()));
      }
    }
    return results;
  }

  /** The latest erasure time of each of these subjects that has a tombstone. */
  private Map<SubjectHash, Instant> latestErasures(String keyName, List<SubjectHash> subjects) {
    Map<SubjectHash, Instant> latest = new HashMap<>();
    for (List<SubjectHash> chunk : chunks(subjects, 1, 1)) {
      String sql =
          "SELECT subject_hash, MAX(erased_ms) FROM "
              + TABLE
              + " WHERE key_name = ? AND erased_ms IS NOT NULL AND subject_hash IN ("
              + placeholders(chunk.size())
              + ") GROUP BY subject_hash";
      run(
          "erase",
          sql,
          statement -> {
            int i = 1;
            statement.setString(i++, keyName);
            for (SubjectHash subject : chunk) {
              statement.setBytes(i++, subject.bytes());
            }
            try (ResultSet result = statement.executeQuery()) {
              while (result.next()) {
                latest.put(
                    SubjectHash.of(result.getBytes(1)), Instant.ofEpochMilli(result.getLong(2)));
              }
            }
            return null;
          });
    }
    return latest;
  }

  @Override
  public Map<Integer, Long> countByWrapVersion(String keyName) {
    checkKeyName(keyName);
    return run(
        "countByWrapVersion",
        "SELECT wrap_version, COUNT(*) FROM "
            + TABLE
            + " WHERE key_name = ? AND erased_ms IS NULL GROUP BY wrap_version",
        statement -> {
          statement.setString(1, keyName);
          Map<Integer, Long> counts = new TreeMap<>();
          try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
              counts.put(result.getInt(1), result.getLong(2));
            }
          }
          return counts;
        });
  }

  @Override
  public List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    checkKeyName(keyName);
    if (limit < 1) {
      throw new IllegalArgumentException("a page holds at least 1 row, got " + limit);
    }
    String sql =
        "SELECT "
            + COLUMNS
            + " FROM "
            + TABLE
            + " WHERE key_name = ? AND erased_ms IS NULL AND wrap_version < ?"
            + (after == null ? "" : " AND ref > ?")
            + " ORDER BY ref LIMIT ?";
    return query(
        "wrappedBelow",
        sql,
        statement -> {
          int i = 1;
          statement.setString(i++, keyName);
          statement.setInt(i++, belowVersion);
          if (after != null) {
            statement.setBytes(i++, after.bytes());
          }
          statement.setInt(i++, limit);
        });
  }

  @Override
  public int rewrap(List<SubjectRewrap> rewraps) {
    Objects.requireNonNull(rewraps, "rewraps");
    Set<SubjectRef> refs = new HashSet<>();
    for (SubjectRewrap rewrap : rewraps) {
      Objects.requireNonNull(rewrap, "rewrap");
      Objects.requireNonNull(rewrap.ref(), "ref");
      Objects.requireNonNull(rewrap.wrappedKey(), "wrappedKey");
      if (rewrap.toVersion() < 1) {
        throw new IllegalArgumentException(
            "a key version is at least 1, got " + rewrap.toVersion());
      }
      if (!refs.add(rewrap.ref())) {
        throw new IllegalArgumentException("one rewrap per subject key and call: " + rewrap.ref());
      }
    }
    int changed = 0;
    for (List<SubjectRewrap> chunk : chunks(rewraps, 0, 4)) {
      // Check-and-set: a row rewrapped by another sweep, or erased, no longer matches.
      String sql =
          "UPDATE "
              + TABLE
              + " AS t SET wrapped_key = v.column3, wrap_version = v.column4 FROM (VALUES "
              + rows(chunk.size(), 4)
              + ") AS v WHERE t.ref = v.column1 AND t.wrap_version = v.column2"
              + " AND t.erased_ms IS NULL";
      changed +=
          run(
              "rewrap",
              sql,
              statement -> {
                int i = 1;
                for (SubjectRewrap rewrap : chunk) {
                  statement.setBytes(i++, rewrap.ref().bytes());
                  statement.setInt(i++, rewrap.fromVersion());
                  statement.setString(i++, rewrap.wrappedKey());
                  statement.setInt(i++, rewrap.toVersion());
                }
                return statement.executeUpdate();
              });
    }
    return changed;
  }

  @Override
  public void close() {
    try {
      pool.close();
    } catch (Exception e) {
      throw new SubjectStoreUnavailableException("subject store: closing its pool failed", e);
    }
  }

  /** Binds a statement's parameters. */
  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  /** Runs a prepared statement and reads its result. */
  private interface Work<T> {
    T apply(PreparedStatement statement) throws SQLException;
  }

  private List<SubjectRecord> query(String operation, String sql, Binder binder) {
    return run(
        operation,
        sql,
        statement -> {
          binder.bind(statement);
          List<SubjectRecord> rows = new ArrayList<>();
          try (ResultSet result = statement.executeQuery()) {
            while (result.next()) {
              rows.add(record(result));
            }
          }
          return rows;
        });
  }

  /**
   * Runs one statement on a pooled connection in auto-commit. A statement the database aborted to
   * break a deadlock or a serialization conflict (SQL states 40P01, 40001: CockroachDB asks its
   * clients to retry those) is run again, at most {@value #ATTEMPTS} times in all. A statement the
   * query timeout cancelled (PostgreSQL's 57014) is not: the database was stalled, not in conflict.
   * A database error becomes a {@link SubjectStoreUnavailableException} naming the operation and
   * the SQL state: the database's own message, which may quote a row's values, stays in the cause.
   */
  private <T> T run(String operation, String sql, Work<T> work) {
    for (int attempt = 1; ; attempt++) {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement statement = connection.prepareStatement(sql)) {
        statement.setQueryTimeout(statementTimeoutSeconds);
        return work.apply(statement);
      } catch (SQLException e) {
        if (attempt < ATTEMPTS && RETRIED_STATES.contains(e.getSQLState())) {
          continue;
        }
        if (QUERY_CANCELED.equals(e.getSQLState())) {
          throw new SubjectStoreUnavailableException(
              "subject store: "
                  + operation
                  + " timed out after "
                  + statementTimeoutSeconds
                  + " s (--subject-store-statement-timeout): the database did not answer",
              e);
        }
        throw new SubjectStoreUnavailableException(
            "subject store: " + operation + " failed (SQL state " + e.getSQLState() + ")", e);
      }
    }
  }

  private static SubjectRecord record(ResultSet row) throws SQLException {
    SubjectRef ref = SubjectRef.of(row.getBytes(1));
    String keyName = row.getString(2);
    SubjectHash subject = SubjectHash.of(row.getBytes(3));
    int version = row.getInt(4);
    String wrapped = row.getString(5);
    Instant created = Instant.ofEpochMilli(row.getLong(6));
    long erased = row.getLong(7);
    Instant erasedAt = row.wasNull() ? null : Instant.ofEpochMilli(erased);
    return new SubjectRecord(ref, keyName, subject, wrapped, version, created, erasedAt);
  }

  private static void checkKeyName(String keyName) {
    Objects.requireNonNull(keyName, "keyName");
    if (keyName.isEmpty() || keyName.length() > MAX_KEY_NAME) {
      throw new IllegalArgumentException(
          "a key name has 1 to " + MAX_KEY_NAME + " characters, got " + keyName.length());
    }
  }

  private static <T> List<T> distinct(Collection<T> items) {
    Objects.requireNonNull(items, "subjects");
    for (T item : items) {
      Objects.requireNonNull(item, "an element");
    }
    return List.copyOf(new LinkedHashSet<>(items));
  }

  /** {@code items} in runs that fit one statement with {@code fixed} other parameters. */
  private static <T> List<List<T>> chunks(List<T> items, int fixed, int perItem) {
    int size = (MAX_PARAMETERS - fixed) / perItem;
    List<List<T>> chunks = new ArrayList<>();
    for (int from = 0; from < items.size(); from += size) {
      chunks.add(items.subList(from, Math.min(items.size(), from + size)));
    }
    return chunks;
  }

  /** {@code count} parameters for an IN list: {@code ?, ?, ?}. */
  private static String placeholders(int count) {
    return String.join(", ", Collections.nCopies(count, "?"));
  }

  /**
   * {@code count} rows of {@code width} parameters, for a multi-row VALUES or a row-value IN list:
   * {@code (?, ?), (?, ?)}.
   */
  private static String rows(int count, int width) {
    return String.join(", ", Collections.nCopies(count, "(" + placeholders(width) + ")"));
  }

  /** A subject under one named key: what the partial unique index keeps to one live row. */
  private record LiveKey(String keyName, SubjectHash subject) {}
}

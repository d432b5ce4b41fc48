package io.cipherd.server.bench;

import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjectstore.jdbc.JdbcSubjectStores;
import io.cipherd.server.subjectstore.jdbc.TestPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The subject store at scale, on the embedded SQLite file and on a real PostgreSQL ({@code make
 * bench-subjects}; not a test, no pass mark): seeds N subjects (default 1,000,000) with multi-row
 * inserts, then prints bytes per subject, the seeding rate, a find() of 256 cold subjects (p50,
 * p99), erasure throughput in batches of 1000, and the time to open the store empty and with N
 * subjects (nothing is loaded at open, so it should not grow with N).
 *
 * <p>Arguments: {@code [N] [sqlite|postgresql|both]}. PostgreSQL is the test fixture's throwaway
 * cluster ({@code CIPHERD_POSTGRES_BIN}) with PostgreSQL's default durability (fsync on).
 */
public final class SubjectStoreBenchmark {
  private static final int SEED_BATCH = 5_000;
  private static final int FIND_BATCH = 256;
  private static final int FIND_ROUNDS = 200;
  private static final int ERASE_BATCH = 1_000;
  private static final int ERASE_BATCHES = 100;
  private static final int OPENS = 7;
  private static final String KEY = "users";

  private final int n;
  private final byte[] hashes;
  private final SecureRandom random = new SecureRandom();

  private SubjectStoreBenchmark(int n) {
    this.n = n;
    this.hashes = new byte[n * SubjectHash.LENGTH];
    random.nextBytes(hashes);
  }

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 1_000_000;
    String which = args.length > 1 ? args[1] : "both";
    SubjectStoreBenchmark bench = new SubjectStoreBenchmark(n);
    if (!which.equals("postgresql")) {
      Path dir = Files.createTempDirectory("cipherd-subjects-bench-");
      try {
        Path file = dir.resolve("subjects.db");
        bench.run(
            "SQLite (embedded file, WAL, synchronous=FULL)",
            new SubjectStoreConfig(null, null, null, 8, dir),
            () -> {
              try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                  Statement s = c.createStatement()) {
                s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
              }
              return Files.size(file);
            });
      } finally {
        try (Stream<Path> paths = Files.walk(dir)) {
          for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
            Files.delete(p);
          }
        }
      }
    }
    if (!which.equals("sqlite")) {
      System.setProperty("cipherd.postgres.durable", "true");
      TestPostgres postgres = TestPostgres.get();
      String database = postgres.newDatabase();
      bench.run(
          "PostgreSQL 15 (throwaway cluster, default durability)",
          postgres.config(database, 8),
          () -> {
            try (Connection c = postgres.connect(database);
                Statement s = c.createStatement()) {
              s.execute("VACUUM ANALYZE cipherd_subject_key");
              try (ResultSet r =
                  s.executeQuery("SELECT pg_total_relation_size('cipherd_subject_key')")) {
                r.next();
                return r.getLong(1);
              }
            }
          });
    }
  }

  /** The size of the store on disk, in bytes. */
  private interface Size {
    long bytes() throws Exception;
  }

  private void run(String name, SubjectStoreConfig config, Size size) throws Exception {
    System.out.printf(Locale.ROOT, "%n== %s, N = %,d%n", name, n);
    JdbcSubjectStores.open(config).close(); // creates and migrates
    Duration openEmpty = timeOpen(config);

    long start = System.nanoTime();
    try (SubjectStore store = JdbcSubjectStores.open(config)) {
      List<SubjectRecord> batch = new ArrayList<>(SEED_BATCH);
      for (int i = 0; i < n; i++) {
        batch.add(row(i));
        if (batch.size() == SEED_BATCH || i == n - 1) {
          store.createIfAbsent(batch);
          batch.clear();
        }
      }
    }
    double seedSeconds = (System.nanoTime() - start) / 1e9;
    long bytes = size.bytes();
    System.out.printf(
        Locale.ROOT,
        "seeded %,d subjects in %.1f s: %,.0f subjects/s (multi-row inserts of %,d)%n",
        n,
        seedSeconds,
        n / seedSeconds,
        SEED_BATCH);
    System.out.printf(
        Locale.ROOT,
        "on disk: %,d bytes, %.0f bytes per subject (table and its indexes)%n",
        bytes,
        (double) bytes / n);

    Duration openFull = timeOpen(config);
    System.out.printf(
        Locale.ROOT,
        "open() and close(), median of %d: %.0f ms empty, %.0f ms with %,d subjects (migrations"
            + " checked, no row read)%n",
        OPENS,
        openEmpty.toNanos() / 1e6,
        openFull.toNanos() / 1e6,
        n);

    try (SubjectStore store = JdbcSubjectStores.open(config)) {
      Random pick = new Random(42);
      long[] nanos = new long[FIND_ROUNDS];
      for (int round = 0; round < FIND_ROUNDS; round++) {
        Set<SubjectHash> subjects = new HashSet<>();
        while (subjects.size() < FIND_BATCH) {
          subjects.add(hash(pick.nextInt(n)));
        }
        long t = System.nanoTime();
        int found = store.find(KEY, subjects).size();
        nanos[round] = System.nanoTime() - t;
        if (found != FIND_BATCH) {
          throw new IllegalStateException("find returned " + found + " of " + FIND_BATCH);
        }
      }
      Arrays.sort(nanos);
      System.out.printf(
          Locale.ROOT,
          "find() of %d random subjects (none cached by cipherd), %d calls: p50 %.2f ms, p99 %.2f"
              + " ms%n",
          FIND_BATCH,
          FIND_ROUNDS,
          nanos[FIND_ROUNDS / 2] / 1e6,
          nanos[FIND_ROUNDS * 99 / 100] / 1e6);

      int batches = Math.min(ERASE_BATCHES, n / ERASE_BATCH);
      long t = System.nanoTime();
      long erased = 0;
      for (int b = 0; b < batches; b++) {
        List<SubjectHash> subjects = new ArrayList<>(ERASE_BATCH);
        for (int i = 0; i < ERASE_BATCH; i++) {
          subjects.add(hash(b * ERASE_BATCH + i));
        }
        erased +=
            store.erase(KEY, subjects, Instant.now()).stream()
                .filter(e -> e.outcome() == SubjectErasure.Outcome.ERASED)
                .count();
      }
      double seconds = (System.nanoTime() - t) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "erase(): %,d subjects in batches of %,d in %.2f s: %,.0f subjects/hour%n",
          erased,
          ERASE_BATCH,
          seconds,
          erased / seconds * 3600);
    }
  }

  /**
   * The median of {@value #OPENS} opens (pool, first connection, migrations checked) and closes.
   */
  private static Duration timeOpen(SubjectStoreConfig config) {
    long[] nanos = new long[OPENS];
    for (int i = 0; i < OPENS; i++) {
      long t = System.nanoTime();
      JdbcSubjectStores.open(config).close();
      nanos[i] = System.nanoTime() - t;
    }
    Arrays.sort(nanos);
    return Duration.ofNanos(nanos[OPENS / 2]);
  }

  private SubjectHash hash(int i) {
    return SubjectHash.of(
        Arrays.copyOfRange(hashes, i * SubjectHash.LENGTH, (i + 1) * SubjectHash.LENGTH));
  }

  /** A row as the server writes one: a gcm ciphertext of a 32-byte key under version 1. */
  private SubjectRecord row(int i) {
    byte[] sealed = new byte[12 + 32 + 16];
    random.nextBytes(sealed);
    return SubjectRecord.live(
        SubjectRef.random(random),
        KEY,
        hash(i),
        "<" + KEY + "/v1:gcm>" + Base64.getEncoder().encodeToString(sealed),
        1,
        Instant.now());
  }
}

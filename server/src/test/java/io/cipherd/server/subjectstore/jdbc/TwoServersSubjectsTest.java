package io.cipherd.server.subjectstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CreateKeyRequest;
import io.cipherd.api.v1.DecryptBatchItem;
import io.cipherd.api.v1.DecryptBatchRequest;
import io.cipherd.api.v1.DecryptBatchResult;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptBatchItem;
import io.cipherd.api.v1.EncryptBatchRequest;
import io.cipherd.api.v1.EncryptBatchResult;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.EraseSubjectRequest;
import io.cipherd.api.v1.GetKeyCensusRequest;
import io.cipherd.api.v1.Mode;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.api.v1.VersionCensus;
import io.cipherd.server.ServerProcess;
import io.cipherd.server.keystore.vault.VaultDevServer;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two cipherd servers in their own JVMs, started as the jar starts them, as two replicas run: keys
 * in one real Vault, subject keys in one real PostgreSQL database. Both creating one new subject at
 * once end with one subject key, which each server's ciphertexts share; an erasure through one is
 * honoured by the other within its {@code --subject-cache-ttl} of the erasure's answer, the bound
 * docs/subject-store.md states; a rotation and the subject sweep on one server while both serve
 * fail no call.
 *
 * <p>Tagged {@code postgres} ({@code make test-postgres}, which builds Vault with {@code
 * .ci/install-vault} if {@code make test-vault} has not already).
 */
@Tag("postgres")
@Timeout(120)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoServersSubjectsTest {
  private static final String PREFIX = "cipherd/two-servers-subjects";
  private static final Duration CACHE_TTL = Duration.ofSeconds(2);
  private static final int CALLS_PER_SERVER = 24;
  private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(2);

  /** The largest batch the servers take (--max-batch-items' default). */
  private static final int MAX_BATCH_ITEMS = 4096;

  @TempDir static Path dir;
  private VaultDevServer vault;
  private String database;
  private ServerProcess a;
  private ServerProcess b;
  private String key;

  @BeforeAll
  void start() throws Exception {
    TestPostgres postgres = TestPostgres.get();
    database = postgres.newDatabase();
    vault = VaultDevServer.startDev();
    Path token = dir.resolve("vault-token");
    Files.writeString(token, vault.rootToken());
    Path password = dir.resolve("postgres-password");
    Files.writeString(password, postgres.password());
    List<String> arguments =
        List.of(
            "--host",
            "127.0.0.1",
            "--keystore",
            "vault",
            "--vault-address",
            vault.address(),
            "--vault-prefix",
            PREFIX,
            "--vault-auth",
            "token",
            "--vault-token-file",
            token.toString(),
            "--vault-refresh-interval",
            "PT1S",
            "--subject-store-url",
            postgres.url(database),
            "--subject-store-user",
            TestPostgres.USER,
            "--subject-store-password-file",
            password.toString(),
            "--subject-store-pool-size",
            "4",
            "--subject-cache-ttl",
            CACHE_TTL.toString(),
            "--subject-store-statement-timeout",
            STATEMENT_TIMEOUT.toString());
    List<String> jvm = List.of("-Xmx192m", "-XX:+UseSerialGC");
    a = ServerProcess.start(jvm, arguments, Map.of(), dir.resolve("a.log"));
    b = ServerProcess.start(jvm, arguments, Map.of(), dir.resolve("b.log"));
  }

  /** A key of its own for each test: what one test leaves in the store no other counts. */
  private void createKey(String name) {
    key = name;
    a.admin()
        .createKey(CreateKeyRequest.newBuilder().setKeyName(key).setMode(Mode.MODE_GCM).build());
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable closeable : new AutoCloseable[] {a, b, vault}) {
      if (closeable != null) {
        closeable.close();
      }
    }
  }

  @Test
  void bothCreatingOneNewSubjectAtOnce_endWithOneKey_andDecryptEachOthersCiphertexts()
      throws Exception {
    createKey("race");
    CyclicBarrier start = new CyclicBarrier(2 * CALLS_PER_SERVER);
    ExecutorService pool = Executors.newFixedThreadPool(2 * CALLS_PER_SERVER);
    Map<ServerProcess, List<Future<String>>> made =
        Map.of(a, new ArrayList<>(), b, new ArrayList<>());
    try {
      for (ServerProcess server : List.of(a, b)) {
        for (int i = 0; i < CALLS_PER_SERVER; i++) {
          String plaintext = "note " + i;
          made.get(server)
              .add(
                  pool.submit(
                      () -> {
                        start.await();
                        return encrypt(server, "user-new", plaintext);
                      }));
        }
      }
      for (ServerProcess maker : List.of(a, b)) {
        ServerProcess other = maker == a ? b : a;
        for (int i = 0; i < CALLS_PER_SERVER; i++) {
          String ciphertext = made.get(maker).get(i).get(30, TimeUnit.SECONDS);
          assertThat(decrypt(other, ciphertext)).isEqualTo("note " + i);
          assertThat(decrypt(maker, ciphertext)).isEqualTo("note " + i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(subjectRows())
        .as("subject key rows after %d racing encryptions", 2 * CALLS_PER_SERVER)
        .isEqualTo(1);
  }

  @Test
  void erasureThroughOneServer_isHonouredByTheOtherWithinTheCacheTtl_othersStillDecrypt()
      throws Exception {
    createKey("erasure");
    String gone = encrypt(a, "user-gone", "gone's email");
    String kept = encrypt(b, "user-kept", "kept's email");
    // B has the subject's key in its cache: the erasure must reach it through its TTL.
    assertThat(decrypt(b, gone)).isEqualTo("gone's email");
    assertThat(decrypt(a, kept)).isEqualTo("kept's email");

    a.subjects()
        .eraseSubject(
            EraseSubjectRequest.newBuilder().setKeyName(key).setSubject("user-gone").build());
    long erased = System.nanoTime();
    assertThat(refusal(a, gone)).as("the erasing server, at once").isEqualTo("SUBJECT_ERASED");

    long lastDecryptStarted = erased;
    long refusedAt;
    while (true) {
      long started = System.nanoTime();
      try {
        decrypt(b, gone);
        lastDecryptStarted = started;
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
        assertThat(ServerProcess.reason(e)).isEqualTo("SUBJECT_ERASED");
        refusedAt = System.nanoTime();
        break;
      }
      assertThat(Duration.ofNanos(started - erased))
          .as("B still decrypts the erased subject")
          .isLessThan(CACHE_TTL.multipliedBy(3));
      Thread.sleep(10);
    }
    Duration lastServed = Duration.ofNanos(lastDecryptStarted - erased);
    Duration propagation = Duration.ofNanos(refusedAt - erased);
    System.out.printf(
        "erasure on A honoured by B after %d ms (last decrypt served %d ms after the erasure's"
            + " answer; --subject-cache-ttl %d ms)%n",
        propagation.toMillis(), lastServed.toMillis(), CACHE_TTL.toMillis());
    assertThat(lastServed)
        .as("no decrypt of the erased subject that B started later than the TTL succeeds")
        .isLessThanOrEqualTo(CACHE_TTL);
    for (ServerProcess server : List.of(a, b)) {
      assertThat(refusal(server, gone)).isEqualTo("SUBJECT_ERASED");
      assertThat(decrypt(server, kept)).isEqualTo("kept's email");
    }
  }

  @Test
  void rotationAndSweepOnOneServer_whileBothServe_failNoCall() throws Exception {
    createKey("rotation");
    List<String> before = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      before.add(encrypt(i % 2 == 0 ? a : b, "user-" + i, "row " + i));
    }
    AtomicBoolean serving = new AtomicBoolean(true);
    AtomicInteger calls = new AtomicInteger();
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<?>> loads = new ArrayList<>();
    for (ServerProcess server : List.of(a, b)) {
      loads.add(
          pool.submit(
              () -> {
                for (int round = 0; serving.get(); round++) {
                  int i = round % before.size();
                  try {
                    String plaintext = decrypt(server, before.get(i));
                    if (!plaintext.equals("row " + i)) {
                      failures.add("wrong plaintext for row " + i);
                    }
                    String fresh = encrypt(server, "user-" + i, "again " + round);
                    if (!decrypt(server, fresh).equals("again " + round)) {
                      failures.add("wrong plaintext for a fresh ciphertext");
                    }
                    calls.addAndGet(3);
                  } catch (StatusRuntimeException e) {
                    failures.add(e.getStatus().getCode() + " " + ServerProcess.reason(e));
                  }
                }
              }));
    }
    try {
      Thread.sleep(300);
      a.admin().rotateKey(RotateKeyRequest.newBuilder().setKeyName(key).build());
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (subjectKeysUnder(1) > 0) {
        assertThat(System.nanoTime()).as("A's sweep within 20 s").isLessThan(deadline);
        Thread.sleep(100);
      }
      assertThat(subjectKeysUnder(2)).isEqualTo(20);
      // Both servers' caches expire, so each reads the rows the sweep rewrapped under version 2.
      int callsAtSweep = calls.get();
      Thread.sleep(CACHE_TTL.plusSeconds(1).toMillis());
      assertThat(calls.get()).as("calls served after the sweep").isGreaterThan(callsAtSweep);
    } finally {
      serving.set(false);
      for (Future<?> load : loads) {
        load.get(30, TimeUnit.SECONDS);
      }
      pool.shutdownNow();
    }
    System.out.printf(
        "rotation and sweep on A while A and B served: %d calls, %d failed%n",
        calls.get(), failures.size());
    assertThat(failures).isEmpty();
    for (int i = 0; i < before.size(); i++) {
      assertThat(decrypt(b, before.get(i))).isEqualTo("row " + i);
    }
  }

  @Test
  void aStalledDatabase_failsTheLargestBatchOfColdSubjectsWithinTheStatementTimeout_otherCallsGoOn()
      throws Exception {
    createKey("stall");
    EncryptBatchRequest.Builder rows = EncryptBatchRequest.newBuilder().setKeyName(key);
    for (int i = 0; i < MAX_BATCH_ITEMS; i++) {
      rows.addItems(
          EncryptBatchItem.newBuilder()
              .setSubject("stalled-" + i)
              .setPlaintext(ByteString.copyFromUtf8("row " + i)));
    }
    DecryptBatchRequest.Builder batch = DecryptBatchRequest.newBuilder();
    for (EncryptBatchResult result : a.crypto().encryptBatch(rows.build()).getResultsList()) {
      assertThat(result.hasCiphertext()).as("%s", result.getError()).isTrue();
      batch.addItems(DecryptBatchItem.newBuilder().setCiphertext(result.getCiphertext()));
    }
    String plain = b.crypto().encrypt(plainRequest()).getCiphertext();

    // Another session holds the table, as a migration or a VACUUM FULL would; B knows none of the
    // subjects, so its batch must read their rows.
    try (Connection locker = TestPostgres.get().connect(database)) {
      locker.setAutoCommit(false);
      try (Statement statement = locker.createStatement()) {
        statement.execute("LOCK TABLE cipherd_subject_key IN ACCESS EXCLUSIVE MODE");
      }
      long start = System.nanoTime();
      List<String> reasons = new ArrayList<>();
      try {
        for (DecryptBatchResult result :
            b.crypto()
                .withDeadlineAfter(60, TimeUnit.SECONDS)
                .decryptBatch(batch.build())
                .getResultsList()) {
          reasons.add(result.hasError() ? result.getError().getReason() : "DECRYPTED");
        }
      } catch (StatusRuntimeException e) {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        reasons.add(ServerProcess.reason(e));
      }
      Duration took = Duration.ofNanos(System.nanoTime() - start);
      System.out.printf(
          "a DecryptBatch of %d cold subjects against a locked table answered after %d ms"
              + " (--subject-store-statement-timeout %d ms): %s%n",
          MAX_BATCH_ITEMS,
          took.toMillis(),
          STATEMENT_TIMEOUT.toMillis(),
          reasons.stream().distinct().toList());
      assertThat(reasons).isNotEmpty().containsOnly("STORE_UNAVAILABLE");
      // Budget: one statement's timeout, the cancel's round-trip, the batch's own work.
      assertThat(took).isLessThan(STATEMENT_TIMEOUT.plusSeconds(6));
      // Meanwhile calls that need no subject row are served as before.
      assertThat(decrypt(b, plain)).isEqualTo("no subject");
      locker.rollback();
    }

    List<DecryptBatchResult> after = b.crypto().decryptBatch(batch.build()).getResultsList();
    assertThat(after).hasSize(MAX_BATCH_ITEMS);
    for (int i = 0; i < MAX_BATCH_ITEMS; i++) {
      assertThat(after.get(i).getPlaintext().toStringUtf8()).isEqualTo("row " + i);
    }
  }

  private EncryptRequest plainRequest() {
    return EncryptRequest.newBuilder()
        .setKeyName(key)
        .setPlaintext(ByteString.copyFromUtf8("no subject"))
        .build();
  }

  private String encrypt(ServerProcess server, String subject, String plaintext) {
    return server
        .crypto()
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setSubject(subject)
                .setPlaintext(ByteString.copyFromUtf8(plaintext))
                .build())
        .getCiphertext();
  }

  private static String decrypt(ServerProcess server, String ciphertext) {
    return server
        .crypto()
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext()
        .toStringUtf8();
  }

  private static String refusal(ServerProcess server, String ciphertext) {
    StatusRuntimeException e =
        catchThrowableOfType(StatusRuntimeException.class, () -> decrypt(server, ciphertext));
    assertThat(e).as("the decrypt is refused").isNotNull();
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    return ServerProcess.reason(e);
  }

  /** The live subject keys {@code version} wraps, as the census on B reports them. */
  private long subjectKeysUnder(int version) {
    for (VersionCensus census :
        b.admin()
            .getKeyCensus(GetKeyCensusRequest.newBuilder().setKeyName(key).build())
            .getVersionsList()) {
      if (census.getVersion() == version) {
        return census.getSubjectKeys();
      }
    }
    return 0;
  }

  private int subjectRows() throws Exception {
    try (Connection connection = TestPostgres.get().connect(database);
        PreparedStatement count =
            connection.prepareStatement(
                "SELECT count(*) FROM cipherd_subject_key WHERE key_name = ?")) {
      count.setString(1, key);
      try (ResultSet rows = count.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }
}

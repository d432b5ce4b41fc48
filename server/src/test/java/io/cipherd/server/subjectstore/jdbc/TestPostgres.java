package io.cipherd.server.subjectstore.jdbc;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import io.cipherd.server.subjects.SubjectStoreConfig;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * A throwaway PostgreSQL cluster for tests, as clients/go/internal/testpostgres starts one: initdb
 * into a temporary directory, the server on a free 127.0.0.1 port with password (SCRAM)
 * authentication, fsync off. Run as root, PostgreSQL runs as the system user postgres (initdb and
 * postgres refuse root), through setpriv, which also kills it if this JVM dies. One cluster per
 * JVM, started on first use and stopped at exit; each test takes a database of its own.
 *
 * <p>The binaries come from {@code CIPHERD_POSTGRES_BIN}, the directory {@code
 * .ci/install-postgres} prints ({@code make test-postgres} sets it). Without it tests are skipped,
 * except under {@code CI=true}, where they fail.
 */
public final class TestPostgres {
  /** The cluster's superuser, whom the tests connect as. */
  public static final String USER = "cipherd";

  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static TestPostgres running;

  private final Path dir;
  private final String password;
  private final AtomicInteger databases = new AtomicInteger();
  private int port;
  private Process process;

  private TestPostgres(Path dir, String password) {
    this.dir = dir;
    this.password = password;
  }

  /** The JVM's cluster, started on first use; skips the test (fails it under CI) without one. */
  public static synchronized TestPostgres get() {
    if (running == null) {
      String bin = System.getenv("CIPHERD_POSTGRES_BIN");
      if (bin == null || bin.isEmpty() || !Files.isExecutable(Path.of(bin, "initdb"))) {
        String why =
            "no PostgreSQL: set CIPHERD_POSTGRES_BIN to the directory .ci/install-postgres prints"
                + " (make test-postgres does)";
        if ("true".equals(System.getenv("CI"))) {
          fail(why);
        }
        abort(why);
      }
      try {
        running = start(Path.of(bin));
      } catch (Exception e) {
        throw new IllegalStateException("starting PostgreSQL failed", e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(running::stop, "test-postgres-stop"));
    }
    return running;
  }

  /** The user's password. */
  public String password() {
    return password;
  }

  /** A store's configuration on {@code database}, with a pool of {@code poolSize}. */
  public SubjectStoreConfig config(String database, int poolSize) {
    return new SubjectStoreConfig(url(database), USER, password.toCharArray(), poolSize, null);
  }

  /** A JDBC URL of {@code database}. */
  public String url(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?sslmode=disable";
  }

  /** A new, empty database; returns its name. */
  public String newDatabase() throws SQLException {
    String name = "test_" + databases.incrementAndGet();
    try (Connection admin = connect("postgres");
        Statement statement = admin.createStatement()) {
      statement.execute("CREATE DATABASE " + name);
    }
    return name;
  }

  /** A connection to {@code database} as {@link #USER}. */
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(url(database), USER, password);
  }

  private static TestPostgres start(Path bin) throws Exception {
    Path dir = Files.createTempDirectory("cipherd-postgres-");
    byte[] secret = new byte[16];
    new SecureRandom().nextBytes(secret);
    TestPostgres cluster = new TestPostgres(dir, HexFormat.of().formatHex(secret));
    try {
      cluster.run(bin);
    } catch (Exception e) {
      cluster.stop();
      throw e;
    }
    return cluster;
  }

  private void run(Path bin) throws Exception {
    boolean root = "root".equals(System.getProperty("user.name"));
    Path pwfile = dir.resolve("password");
    Files.writeString(pwfile, password + "\n", StandardCharsets.UTF_8);
    if (root) {
      UserPrincipal postgres =
          dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("postgres");
      Files.setOwner(dir, postgres);
      Files.setOwner(pwfile, postgres);
    }
    Path data = dir.resolve("data");
    Path log = dir.resolve("initdb.log");
    Process initdb =
        command(
                root,
                bin.resolve("initdb").toString(),
                "-D",
                data.toString(),
                "-U",
                USER,
                "--pwfile",
                pwfile.toString(),
                "--auth",
                "scram-sha-256",
                "--encoding",
                "UTF8",
                "--no-locale",
                "--no-sync")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!initdb.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || initdb.exitValue() != 0) {
      initdb.destroyForcibly();
      throw new IllegalStateException("initdb failed:\n" + Files.readString(log));
    }
    port = freePort();
    Path serverLog = dir.resolve("postgres.log");
    List<String> server =
        new ArrayList<>(
            List.of(
                bin.resolve("postgres").toString(),
                "-D",
                data.toString(),
                "-p",
                String.valueOf(port),
                "-k",
                dir.toString(),
                "-c",
                "listen_addresses=127.0.0.1"));
    // Durability is not what the tests check: no fsync keeps a small machine's disk out of them.
    // A benchmark asks for PostgreSQL's defaults (-Dcipherd.postgres.durable=true).
    if (!Boolean.getBoolean("cipherd.postgres.durable")) {
      server.addAll(
          List.of("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"));
    }
    process =
        command(root, server.toArray(String[]::new))
            .redirectErrorStream(true)
            .redirectOutput(serverLog.toFile())
            .start();
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (true) {
      try (Connection ignored = connect("postgres")) {
        return;
      } catch (SQLException notYet) {
        if (!process.isAlive()) {
          throw new IllegalStateException("postgres exited:\n" + Files.readString(serverLog));
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "postgres not accepting connections after "
                  + START_TIMEOUT
                  + ": "
                  + notYet.getMessage()
                  + "\n"
                  + Files.readString(serverLog));
        }
        Thread.sleep(100);
      }
    }
  }

  /** A PostgreSQL program run as postgres when this JVM is root, killed if this JVM dies. */
  private ProcessBuilder command(boolean root, String... program) {
    List<String> command = new ArrayList<>(List.of("setpriv", "--pdeathsig", "SIGKILL"));
    if (root) {
      command.addAll(List.of("--reuid=postgres", "--regid=postgres", "--init-groups"));
    }
    command.add("--");
    command.addAll(List.of(program));
    return new ProcessBuilder(command).directory(dir.toFile());
  }

  /** A fast shutdown (SIGINT), a kill after 10 s, and the directory removed. */
  private synchronized void stop() {
    try {
      if (process != null && process.isAlive()) {
        new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).start().waitFor();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor();
        }
      }
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(path);
        }
      }
    } catch (IOException | InterruptedException e) {
      System.err.println("test-postgres: cleaning up " + dir + " failed: " + e);
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}

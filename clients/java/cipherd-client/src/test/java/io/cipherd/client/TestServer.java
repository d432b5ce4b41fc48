package io.cipherd.client;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real cipherd jar for the tests (CIPHERD_JAR, CIPHERD_JAVA, CIPHERD_JAVA_OPTS; make
 * test-java-client): a data dir in {@code workdir}, a generated key store password, free ports (the
 * server picks them and logs them), ready once /readyz answers 200. Without a jar a test is skipped
 * locally and fails in CI.
 */
final class TestServer implements AutoCloseable {
  private static final Pattern LISTENING = Pattern.compile("cipherd listening on \\S+:(\\d+) ");
  private static final Pattern PROBES =
      Pattern.compile("metrics and probes on http:\\S*?:(\\d+)\\\\?/");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

  private final Process process;
  private final List<String> log;
  final int port;
  final int httpPort;
  final Path workdir;

  private TestServer(Process process, List<String> log, int port, int httpPort, Path workdir) {
    this.process = process;
    this.log = log;
    this.port = port;
    this.httpPort = httpPort;
    this.workdir = workdir;
  }

  String target() {
    return "127.0.0.1:" + port;
  }

  /**
   * Starts cipherd on the key store in {@code workdir} (made if missing) with {@code args} added.
   */
  static TestServer start(Path workdir, String... args) throws IOException, InterruptedException {
    Path jar = jar();
    Files.createDirectories(workdir);
    Path password = workdir.resolve("keystore-password");
    if (!Files.exists(password)) {
      byte[] secret = new byte[24];
      new SecureRandom().nextBytes(secret);
      Files.writeString(password, Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
      Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    }
    List<String> command = new ArrayList<>();
    command.add(setting("cipherd.java", "java"));
    String opts = setting("cipherd.javaOpts", "");
    if (!opts.isBlank()) {
      command.addAll(Arrays.asList(opts.trim().split("\\s+")));
    }
    command.addAll(
        List.of(
            "-jar", jar.toString(),
            "--host", "127.0.0.1",
            "--port", "0",
            "--http-port", "0",
            "--data-dir", workdir.resolve("data").toString(),
            "--keystore-password-file", password.toString(),
            "--shutdown-grace", "PT1S"));
    command.addAll(Arrays.asList(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> log = Collections.synchronizedList(new ArrayList<>());
    int[] ports = {0, 0};
    CountDownLatch found = new CountDownLatch(1);
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(
                      new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                  log.add(line);
                  Matcher grpc = LISTENING.matcher(line);
                  Matcher http = PROBES.matcher(line);
                  if (ports[0] == 0 && grpc.find()) {
                    ports[0] = Integer.parseInt(grpc.group(1));
                  }
                  if (ports[1] == 0 && http.find()) {
                    ports[1] = Integer.parseInt(http.group(1));
                  }
                  if (ports[0] != 0 && ports[1] != 0) {
                    found.countDown();
                  }
                }
              } catch (IOException ended) {
                // the process ended
              }
            });
    reader.setDaemon(true);
    reader.start();
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (!found.await(200, TimeUnit.MILLISECONDS)) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        process.destroyForcibly();
        throw new IllegalStateException("cipherd did not start:\n" + tail(log));
      }
    }
    TestServer server = new TestServer(process, log, ports[0], ports[1], workdir);
    server.awaitReady(deadline);
    return server;
  }

  private void awaitReady(Instant deadline) throws InterruptedException {
    while (true) {
      try {
        HttpURLConnection probe =
            (HttpURLConnection)
                URI.create("http://127.0.0.1:" + httpPort + "/readyz").toURL().openConnection();
        probe.setConnectTimeout(2000);
        probe.setReadTimeout(2000);
        if (probe.getResponseCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // retried until the deadline
      }
      if (Instant.now().isAfter(deadline)) {
        close();
        throw new IllegalStateException("cipherd never became ready:\n" + tail(log));
      }
      Thread.sleep(200);
    }
  }

  /** The server's output so far. */
  String log() {
    synchronized (log) {
      return String.join("\n", log);
    }
  }

  /** Kills the server at once (SIGKILL), as a crash would. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The jar `make build` makes; missing, the test is skipped locally and fails in CI. */
  static Path jar() {
    String configured = setting("cipherd.jar", "");
    Path jar =
        configured.isEmpty()
            ? Path.of("../../../server/target/cipherd.jar").toAbsolutePath().normalize()
            : Path.of(configured);
    if (!Files.isRegularFile(jar)) {
      String message = "no server jar at " + jar + ": run `make build` (or set CIPHERD_JAR)";
      if ("true".equals(setting("cipherd.ci", "")) || "true".equals(System.getenv("CI"))) {
        fail(message);
      }
      assumeTrue(false, message);
    }
    return jar;
  }

  /** A system property the pom passes from the environment; unset ones arrive as "${env.X}". */
  private static String setting(String name, String fallback) {
    String value = System.getProperty(name, "");
    return value.isEmpty() || value.startsWith("${") ? fallback : value;
  }

  private static String tail(List<String> log) {
    synchronized (log) {
      return String.join("\n", log.subList(Math.max(0, log.size() - 30), log.size()));
    }
  }
}

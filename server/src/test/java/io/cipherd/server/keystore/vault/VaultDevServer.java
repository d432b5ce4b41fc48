package io.cipherd.server.keystore.vault;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.cipherd.server.keystore.vault.auth.VaultAuth;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Vault server on 127.0.0.1 and a free port, built by {@code .ci/install-vault}: either a
 * dev server (in-memory, KV v2 at {@code secret/}, random root token) or, for restart tests, a
 * server with file storage in a temporary directory that is initialised and unsealed over HTTP.
 *
 * <p>Without the binary, tests are skipped unless {@code CI} is set, in which case the binary is
 * built.
 */
public final class VaultDevServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
  private static final String VERSION = "v1.21.0";
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private Path binary;
  private Path home;
  private int port;
  private final boolean dev;
  private String rootToken;
  private String unsealKey;
  private Process process;
  private Duration lastStartTime;

  private VaultDevServer(Path binary, Path home, int port, boolean dev) {
    this.binary = binary;
    this.home = home;
    this.port = port;
    this.dev = dev;
  }

  /** A dev server; KV v2 is mounted at {@code secret/}. */
  public static VaultDevServer startDev() throws Exception {
    VaultDevServer server = perClass();
    server.startNewDev();
    return server;
  }

  /**
   * A dev server for one test class, as a JUnit extension ({@code @RegisterExtension static}):
   * started before the class's first test, stopped after its last.
   */
  static VaultDevServer perClass() {
    return new VaultDevServer(null, null, 0, true);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    startNewDev();
    System.out.println("Vault dev server started in " + lastStartTime.toMillis() + " ms");
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    stop();
  }

  private void startNewDev() throws Exception {
    binary = binary();
    home = Files.createTempDirectory("cipherd-vault-dev");
    port = freePort();
    rootToken = "root-" + HexFormat.of().formatHex(randomBytes(12));
    start();
  }

  /**
   * A server with file storage that survives {@link #stop()} and {@link #restart()}; KV v2 mounted
   * at {@code secret/}.
   */
  static VaultDevServer startWithFileStorage() throws Exception {
    Path home = Files.createTempDirectory("cipherd-vault-file");
    int port = freePort();
    Files.writeString(
        home.resolve("vault.hcl"),
        """
        storage "file" { path = "%s" }
        listener "tcp" {
          address = "127.0.0.1:%d"
          tls_disable = true
        }
        disable_mlock = true
        api_addr = "http://127.0.0.1:%d"
        """
            .formatted(home.resolve("data"), port, port));
    VaultDevServer server = new VaultDevServer(binary(), home, port, false);
    server.start();
    JsonObject init =
        Json.parse(
                server.http(
                    "PUT", "sys/init", null, "{\"secret_shares\":1,\"secret_threshold\":1}"))
            .asObject();
    server.unsealKey = init.get("keys_base64").asArray().get(0).asString();
    server.rootToken = init.get("root_token").asString();
    server.unseal();
    server.http(
        "POST",
        "sys/mounts/secret",
        server.rootToken,
        "{\"type\":\"kv\",\"options\":{\"version\":\"2\"}}");
    server.awaitKvReady();
    return server;
  }

  public String address() {
    return "http://127.0.0.1:" + port;
  }

  public String rootToken() {
    return rootToken;
  }

  /** How long the last start took, until Vault answered /v1/sys/health. */
  Duration lastStartTime() {
    return lastStartTime;
  }

  /**
   * A configuration for cipherd against this server with {@code auth}, under {@code prefix} in
   * {@code secret/}.
   */
  VaultConfig config(String prefix, VaultAuth auth) {
    return new VaultConfig(
        URI.create(address()),
        "secret",
        prefix,
        auth,
        Duration.ofSeconds(2),
        Duration.ofSeconds(2),
        /* maxRetries= */ 1,
        Duration.ofMillis(100),
        Duration.ofSeconds(30));
  }

  /** A configuration for cipherd against this server with its root token, under {@code prefix}. */
  public VaultConfig config(String prefix) {
    return config(prefix, TokenAuth.of(rootToken));
  }

  /**
   * Sends one API request with the root token and returns the body; throws on a status other than
   * 2xx.
   */
  String api(String method, String path, String json) throws IOException, InterruptedException {
    return http(method, path, rootToken, json);
  }

  /** Whether a GET of {@code path} with the root token finds something (not a 404). */
  boolean exists(String path) throws IOException, InterruptedException {
    int status = send("GET", path, rootToken, null).statusCode();
    if (status != 404 && status / 100 != 2) {
      throw new IllegalStateException("GET " + path + " answered " + status);
    }
    return status != 404;
  }

  /** Kills the server; dev servers lose everything, file-storage servers keep their data. */
  void stop() throws InterruptedException {
    if (process == null) {
      return;
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    process = null;
  }

  /** Starts a stopped file-storage server again on the same port and unseals it. */
  void restart() throws Exception {
    if (dev) {
      throw new IllegalStateException("a dev server loses its data; restart needs file storage");
    }
    start();
    unseal();
    awaitKvReady();
  }

  @Override
  public void close() throws InterruptedException {
    stop();
  }

  private void start() throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(binary.toString(), "server"));
    if (dev) {
      command.addAll(
          List.of(
              "-dev",
              "-dev-listen-address=127.0.0.1:" + port,
              "-dev-root-token-id=" + rootToken,
              "-dev-no-store-token"));
    } else {
      command.add("-config=" + home.resolve("vault.hcl"));
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("vault.log").toFile()));
    builder.environment().put("HOME", home.toString()); // never touch the real ~/.vault-token
    builder.environment().remove("VAULT_ADDR");
    builder.environment().remove("VAULT_TOKEN");
    long started = System.nanoTime();
    process = builder.start();
    awaitListening();
    lastStartTime = Duration.ofNanos(System.nanoTime() - started);
  }

  private void awaitListening() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "Vault exited with " + process.exitValue() + "; see " + home.resolve("vault.log"));
      }
      try {
        HttpResponse<String> health =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(address() + "/v1/sys/health"))
                    .timeout(Duration.ofSeconds(2))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        // 200 active; 501 not initialised and 503 sealed are expected for a file-storage server.
        if (health.statusCode() == 200
            || (!dev && (health.statusCode() == 501 || health.statusCode() == 503))) {
          return;
        }
      } catch (ConnectException notYet) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException(
        "Vault did not start within " + START_TIMEOUT + "; see " + home.resolve("vault.log"));
  }

  private void unseal() throws IOException, InterruptedException {
    http("PUT", "sys/unseal", null, "{\"key\":\"" + unsealKey + "\"}");
  }

  /** A new KV v2 mount answers 'upgrading' for a moment; wait until it takes writes. */
  private void awaitKvReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      HttpResponse<String> response = send("GET", "secret/config", rootToken, null);
      if (response.statusCode() == 200) {
        return;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("Vault's KV v2 mount did not become ready");
  }

  /**
   * Calls Vault's HTTP API at {@code path} (under /v1/) as root, for tests that set up another
   * engine, such as Transit; fails on any answer but 2xx.
   */
  String callAsRoot(String method, String path, String json)
      throws IOException, InterruptedException {
    return http(method, path, rootToken, json);
  }

  private String http(String method, String path, String token, String json)
      throws IOException, InterruptedException {
    HttpResponse<String> response = send(method, path, token, json);
    if (response.statusCode() / 100 != 2) {
      throw new IllegalStateException(
          method + " " + path + " answered " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }

  private HttpResponse<String> send(String method, String path, String token, String json)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(address() + "/v1/" + path))
            .timeout(Duration.ofSeconds(10))
            .method(
                method,
                json == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (token != null) {
      request.header("X-Vault-Token", token);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** The Vault binary from .ci/install-vault; skips the test when it is absent outside CI. */
  static Path binary() {
    Path cached =
        Path.of(System.getProperty("user.home"), ".cache", "cipherd", "bin", "vault-" + VERSION);
    String cacheDir = System.getenv("CIPHERD_CACHE");
    if (cacheDir != null) {
      cached = Path.of(cacheDir, "bin", "vault-" + VERSION);
    }
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    assumeTrue(
        Files.isExecutable(cached) || ci,
        "Vault "
            + VERSION
            + " is not built ("
            + cached
            + "); run .ci/install-vault or make test-vault. "
            + "Under CI=true these tests build it and run.");
    if (Files.isExecutable(cached)) {
      return cached;
    }
    return install();
  }

  private static Path install() {
    Path script = repoRoot().resolve(".ci/install-vault");
    try {
      Process install =
          new ProcessBuilder(script.toString())
              .redirectError(ProcessBuilder.Redirect.INHERIT)
              .start();
      String path =
          new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (install.waitFor() != 0) {
        throw new IllegalStateException(script + " failed");
      }
      return Path.of(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static Path repoRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve(".ci/install-vault"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException(
          ".ci/install-vault not found above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static byte[] randomBytes(int n) {
    byte[] bytes = new byte[n];
    new SecureRandom().nextBytes(bytes);
    return bytes;
  }
}

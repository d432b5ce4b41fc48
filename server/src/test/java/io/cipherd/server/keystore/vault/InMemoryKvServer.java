package io.cipherd.server.keystore.vault;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonArray;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Vault's KV v2 engine (mounted at {@code secret/}) stood in for over HTTP on 127.0.0.1, in memory,
 * for unit tests that need no Vault binary but must make one chosen request fail: the calls cipherd
 * makes (token lookup, data reads and check-and-set writes, metadata reads, writes and lists,
 * destroy), answered as Vault 1.21 answers them. The real engine runs in the {@code vault}-tagged
 * tests; this one is in addition, never instead.
 */
final class InMemoryKvServer implements AutoCloseable {
  static final String MOUNT = "secret";

  /** One KV secret: its versions' data (null once destroyed) and its metadata fields. */
  private static final class Secret {
    final List<JsonObject> versions = new ArrayList<>();
    final JsonObject metadata = new JsonObject();
  }

  private final HttpServer server;
  private final Map<String, Secret> secrets = new TreeMap<>();
  private final List<String> requests = new ArrayList<>();
  private final List<Fault> faults = new ArrayList<>();

  /** A request to fail: the first whose line contains {@code match} after {@code skip} others. */
  private static final class Fault {
    final String match;
    int skip;

    Fault(String match, int skip) {
      this.match = match;
      this.skip = skip;
    }
  }

  InMemoryKvServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/", this::handle);
    server.start();
  }

  /** A store configuration for {@code prefix} on this server: one attempt per call, no retries. */
  VaultConfig config(String prefix) {
    return new VaultConfig(
        URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
        MOUNT,
        prefix,
        TokenAuth.of("stand-in-token"),
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        /* maxRetries= */ 0,
        Duration.ZERO,
        VaultConfig.DEFAULT_REFRESH_INTERVAL);
  }

  /**
   * Answers the next request whose line ({@code "POST secret/destroy/cipherd/keys/_kek/x/1"})
   * contains {@code lineContains}, after letting {@code letThrough} such requests through, with
   * Vault's 500 instead of doing it.
   */
  synchronized void failNext(String lineContains, int letThrough) {
    faults.add(new Fault(lineContains, letThrough));
  }

  /** Every request so far, as {@code "METHOD path?query"}, and forgets them. */
  synchronized List<String> takeRequests() {
    List<String> taken = List.copyOf(requests);
    requests.clear();
    return taken;
  }

  /** The data of KV version {@code version} of {@code path} (under the mount), null if none. */
  synchronized JsonObject data(String path, int version) {
    Secret secret = secrets.get(path);
    return secret == null || version < 1 || version > secret.versions.size()
        ? null
        : secret.versions.get(version - 1);
  }

  /** The number of KV versions {@code path} has had (its metadata's current_version). */
  synchronized int currentVersion(String path) {
    Secret secret = secrets.get(path);
    return secret == null ? 0 : secret.versions.size();
  }

  /** Writes {@code data} as the next KV version of {@code path}, as a KV writer might. */
  synchronized void write(String path, JsonObject data) {
    secrets.computeIfAbsent(path, p -> new Secret()).versions.add(data);
  }

  /** Destroys KV version {@code version} of {@code path}, as KV v2's destroy does. */
  synchronized void destroy(String path, int version) {
    Secret secret = secrets.get(path);
    if (secret != null && version >= 1 && version <= secret.versions.size()) {
      secret.versions.set(version - 1, null);
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      URI uri = exchange.getRequestURI();
      String path = uri.getPath().substring("/v1/".length());
      String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
      String body =
          new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).strip();
      String line = exchange.getRequestMethod() + " " + path + (query.isEmpty() ? "" : "?" + query);
      int status;
      String answer;
      synchronized (this) {
        requests.add(line);
        if (failing(line)) {
          status = 500;
          answer = errors("injected failure");
        } else {
          JsonObject request = body.isEmpty() ? new JsonObject() : Json.parse(body).asObject();
          Answer a = answer(exchange.getRequestMethod(), path, query, request);
          status = a.status();
          answer = a.body();
        }
      }
      byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, status == 204 ? -1 : bytes.length);
      if (status != 204) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  /** Whether {@code line} is a request to fail (which uses up its fault). */
  private boolean failing(String line) {
    for (Fault fault : faults) {
      if (line.contains(fault.match)) {
        if (fault.skip-- == 0) {
          faults.remove(fault);
          return true;
        }
        return false;
      }
    }
    return false;
  }

  private record Answer(int status, String body) {}

  private Answer answer(String method, String path, String query, JsonObject request) {
    if (path.equals("auth/token/lookup-self")) {
      // A root token's lookup, as a dev server answers it: no TTL, so never renewed.
      return ok(
          Json.object()
              .add("id", "stand-in-token")
              .add("path", "auth/token/root")
              .add("policies", new JsonArray().add("root"))
              .add("ttl", 0)
              .add("renewable", false));
    }
    String data = MOUNT + "/data/";
    String metadata = MOUNT + "/metadata/";
    String destroy = MOUNT + "/destroy/";
    if (path.startsWith(data) && method.equals("GET")) {
      return read(path.substring(data.length()), query);
    }
    if (path.startsWith(data) && method.equals("POST")) {
      return checkAndSetWrite(path.substring(data.length()), request);
    }
    if (path.startsWith(metadata) && (method.equals("LIST") || query.contains("list=true"))) {
      return list(path.substring(metadata.length()));
    }
    if (path.startsWith(metadata) && method.equals("GET")) {
      return readMetadata(path.substring(metadata.length()));
    }
    if (path.startsWith(metadata) && method.equals("POST")) {
      Secret secret = secrets.computeIfAbsent(path.substring(metadata.length()), p -> new Secret());
      request.forEach(member -> secret.metadata.set(member.getName(), member.getValue()));
      return new Answer(204, "");
    }
    if (path.startsWith(destroy) && method.equals("POST")) {
      String name = path.substring(destroy.length());
      request.get("versions").asArray().forEach(version -> destroy(name, version.asInt()));
      return new Answer(204, "");
    }
    return new Answer(405, errors("the stand-in does not answer " + method + " " + path));
  }

  private Answer read(String name, String query) {
    Secret secret = secrets.get(name);
    int version =
        query.startsWith("version=")
            ? Integer.parseInt(query.substring("version=".length()))
            : currentVersion(name);
    JsonObject fields = data(name, version);
    if (secret == null || fields == null) {
      return new Answer(404, errors());
    }
    return ok(
        Json.object()
            .add("data", fields)
            .add(
                "metadata",
                Json.object()
                    .add("version", version)
                    .add("destroyed", false)
                    .add("deletion_time", "")));
  }

  private Answer checkAndSetWrite(String name, JsonObject request) {
    int cas = request.get("options").asObject().getInt("cas", -1);
    if (cas != currentVersion(name)) {
      return new Answer(400, errors("check-and-set parameter did not match the current version"));
    }
    write(name, request.get("data").asObject());
    return ok(Json.object().add("version", currentVersion(name)));
  }

  private Answer readMetadata(String name) {
    Secret secret = secrets.get(name);
    if (secret == null) {
      return new Answer(404, errors());
    }
    JsonObject versions = new JsonObject();
    for (int v = 1; v <= secret.versions.size(); v++) {
      versions.add(
          Integer.toString(v),
          Json.object()
              .add("destroyed", secret.versions.get(v - 1) == null)
              .add("deletion_time", ""));
    }
    JsonObject answer = new JsonObject();
    secret.metadata.forEach(member -> answer.add(member.getName(), member.getValue()));
    return ok(answer.set("current_version", secret.versions.size()).set("versions", versions));
  }

  private Answer list(String folder) {
    String prefix = folder.endsWith("/") ? folder : folder + "/";
    TreeSet<String> keys = new TreeSet<>();
    for (String name : secrets.keySet()) {
      if (name.startsWith(prefix)) {
        String rest = name.substring(prefix.length());
        int slash = rest.indexOf('/');
        keys.add(slash < 0 ? rest : rest.substring(0, slash + 1));
      }
    }
    if (keys.isEmpty()) {
      return new Answer(404, errors());
    }
    JsonArray array = new JsonArray();
    keys.forEach(array::add);
    return ok(Json.object().add("keys", array));
  }

  private static Answer ok(JsonValue data) {
    return new Answer(200, Json.object().add("data", data).toString());
  }

  private static String errors(String... messages) {
    JsonArray array = new JsonArray();
    for (String message : messages) {
      array.add(message);
    }
    return Json.object().add("errors", array).toString();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}

package io.cipherd.server.keystore.vault;

import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.json.JsonArray;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import io.github.jopenlibs.vault.response.LogicalResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The handful of KV v2 requests the key store makes, through the driver's raw {@code logical()}
 * calls (each with the session's timeouts and bounded retries), with Vault failures mapped to
 * key-store errors.
 */
final class KvClient {
  /** Vault's answer to a write whose {@code cas} is not the key's current version. */
  private static final String CAS_MISMATCH = "check-and-set";

  private final VaultSession session;
  private final KvPaths paths;
  private final VaultErrors errors;
  private final VaultCircuit circuit;

  KvClient(VaultSession session, KvPaths paths, VaultCircuit circuit) {
    this.session = session;
    this.paths = paths;
    this.errors = session.errors();
    this.circuit = circuit;
  }

  KvPaths paths() {
    return paths;
  }

  /**
   * The fields of one KV version, or empty if the key or version does not exist (or was deleted).
   */
  Optional<JsonObject> readVersion(String name, int version) {
    String path = paths.dataVersion(name, version);
    LogicalResponse response = get("read", path);
    if (status(response) == 404) {
      return Optional.empty();
    }
    JsonObject body = expectOk("read", path, response);
    JsonValue data = body.get("data");
    return data != null && data.isObject() ? Optional.of(data.asObject()) : Optional.empty();
  }

  /** A KV secret's newest data and its KV version number. */
  record Versioned(JsonObject data, int version) {}

  /** The newest version of the KV secret {@code name}, or empty if there is none. */
  Optional<Versioned> readLatest(String name) {
    String path = paths.data(name);
    LogicalResponse response = get("read", path);
    if (status(response) == 404) {
      return Optional.empty();
    }
    JsonObject body = expectOk("read", path, response);
    JsonValue data = body.get("data");
    JsonValue metadata = body.get("metadata");
    if (data == null || !data.isObject() || metadata == null || !metadata.isObject()) {
      return Optional.empty();
    }
    return Optional.of(new Versioned(data.asObject(), metadata.asObject().getInt("version", 0)));
  }

  /**
   * The key's KV metadata (current_version, versions, custom_metadata...), or empty if there is no
   * key.
   */
  Optional<JsonObject> readMetadata(String name) {
    String path = paths.metadata(name);
    LogicalResponse response = get("read", path);
    if (status(response) == 404) {
      return Optional.empty();
    }
    return Optional.of(expectOk("read", path, response));
  }

  /** Every name under the prefix (folders excluded), unsorted. */
  List<String> listNames() {
    String path = paths.metadataFolder();
    LogicalResponse response;
    circuit.checkClosed();
    try {
      response = session.client().logical().list(path);
      circuit.answered();
    } catch (VaultException e) {
      throw unreachable("list", path, e);
    }
    if (response == null) {
      errors.answered();
      return List.of();
    }
    answered(response);
    if (status(response) == 404) {
      return List.of();
    }
    expectOk("list", path, response);
    return response.getListData().stream().filter(n -> !n.endsWith("/")).toList();
  }

  /**
   * Writes {@code fields} as the next KV version if the current one is {@code cas}; false if it is
   * not.
   */
  boolean writeVersion(String name, int cas, JsonObject fields) {
    String path = paths.data(name);
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("options", new JsonObject().add("cas", cas));
    body.put("data", fields);
    LogicalResponse response = post("write", path, body);
    if (status(response) == 400
        && VaultErrors.errors(response.getRestResponse()).contains(CAS_MISMATCH)) {
      return false;
    }
    expectOk("write", path, response);
    return true;
  }

  /** Replaces the metadata fields present in {@code fields}. */
  void writeMetadata(String name, JsonObject fields) {
    String path = paths.metadata(name);
    Map<String, Object> body = new LinkedHashMap<>();
    for (JsonObject.Member member : fields) {
      body.put(member.getName(), member.getValue());
    }
    expectOk("write", path, post("write", path, body));
  }

  /**
   * Destroys the data of KV versions {@code versions} of {@code name} for good (their metadata
   * stays, marked {@code destroyed}); destroying a destroyed version again is a no-op.
   */
  void destroyVersions(String name, List<Integer> versions) {
    String path = paths.destroy(name);
    JsonArray numbers = new JsonArray();
    for (int version : versions) {
      numbers.add(version);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("versions", numbers);
    expectOk("destroy", path, post("destroy", path, body));
  }

  /**
   * POSTs {@code body} to {@code path} outside KV (a Transit endpoint), with the same timeouts,
   * retries and circuit: the answer's {@code data}, or empty when Vault refused the input with 400
   * (a ciphertext that does not decrypt).
   */
  Optional<JsonObject> call(String operation, String path, Map<String, Object> body) {
    LogicalResponse response = post(operation, path, body);
    if (status(response) == 400) {
      return Optional.empty();
    }
    return Optional.of(expectOk(operation, path, response));
  }

  private LogicalResponse get(String operation, String path) {
    circuit.checkClosed();
    try {
      LogicalResponse response = session.client().logical().read(path);
      circuit.answered();
      answered(response);
      return response;
    } catch (VaultException e) {
      throw unreachable(operation, path, e);
    }
  }

  private LogicalResponse post(String operation, String path, Map<String, Object> body) {
    circuit.checkClosed();
    try {
      LogicalResponse response = session.client().logical().write(path, body);
      circuit.answered();
      answered(response);
      return response;
    } catch (VaultException e) {
      throw unreachable(operation, path, e);
    }
  }

  /** A normal answer (success, or "no such key") ends whatever failure was logged last. */
  private void answered(LogicalResponse response) {
    int status = status(response);
    if (status < 400 || status == 404) {
      errors.answered();
    }
  }

  /**
   * The error for a call the driver gave up on; opens the circuit unless Vault did answer (a 5xx, a
   * 403).
   */
  private RuntimeException unreachable(String operation, String path, VaultException e) {
    RuntimeException error = errors.unreachable(operation, path, e);
    if (e.getHttpStatusCode() == 0) {
      circuit.unreachable();
    } else {
      circuit.answered();
    }
    return error;
  }

  /** The response's {@code data} object (empty for 204); throws for any other status. */
  private JsonObject expectOk(String operation, String path, LogicalResponse response) {
    int status = status(response);
    if (status == 204) {
      return new JsonObject();
    }
    if (status != 200) {
      throw errors.unexpected(operation, path, response.getRestResponse());
    }
    JsonObject data = response.getDataObject();
    return data == null ? new JsonObject() : data;
  }

  private static int status(LogicalResponse response) {
    return response.getRestResponse().getStatus();
  }
}

package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/**
 * A key's lifecycle as the KV secret {@code <prefix>/_lifecycle/<name>} holds it, written with
 * check-and-set on its KV version: {@code {"state": "DISABLED", "write_id": "<uuid>", "versions":
 * {"1": {"state": "DESTROYED", "destroy_time": "2026-...", "metadata": {"mode": "gcm", ...}}}}}.
 * Versions not listed are enabled; a destroyed version keeps its fields (as {@link
 * KvVersionFields}, without {@code material}) because its KV version's data is destroyed. A key
 * without the secret is enabled with every version enabled.
 *
 * @param versions the lifecycle of each version not enabled, by number
 * @param destroyed the metadata of each destroyed version, by number
 * @param kvVersion the secret's KV version this was read at; 0 if it does not exist yet
 * @param writeId the random id of the write that stored this, which tells a replica whether a
 *     check-and-set that seemed to fail was its own retried write
 * @param exportable whether BackupKey may write the key out ({@code "exportable": true}; absent
 *     means not). It lives here, written with check-and-set like the states, so no writer that read
 *     the key before it was set can clear it
 */
record KvLifecycle(
    KeyLifecycle key,
    Map<Integer, VersionLifecycle> versions,
    Map<Integer, KeyVersionInfo> destroyed,
    int kvVersion,
    String writeId,
    boolean exportable) {
  static final KvLifecycle NONE =
      new KvLifecycle(KeyLifecycle.ENABLED, Map.of(), Map.of(), 0, "", /* exportable= */ false);

  KvLifecycle {
    versions = Map.copyOf(versions);
    destroyed = Map.copyOf(destroyed);
  }

  static String path(String name) {
    return "_lifecycle/" + name;
  }

  /** {@code live}, a version read from its KV data, in its stored state. */
  KeyVersionInfo apply(KeyVersionInfo live) {
    return live.withLifecycle(versions.getOrDefault(live.version(), VersionLifecycle.ENABLED));
  }

  /** Whether version {@code version} is destroyed. */
  boolean isDestroyed(int version) {
    return destroyed.containsKey(version);
  }

  /** The secret's data for {@code key}'s lifecycle, tagged with {@code writeId}. */
  static JsonObject encode(KeyMetadata key, String writeId) {
    JsonObject versions = Json.object();
    for (KeyVersionInfo version : key.versions()) {
      VersionLifecycle lifecycle = version.lifecycle();
      if (lifecycle.state() == VersionLifecycle.State.ENABLED) {
        continue;
      }
      JsonObject o =
          Json.object()
              .add("state", lifecycle.state().name())
              .add("destroy_time", lifecycle.destroyTime().toString());
      if (LifecycleChange.isDestroyed(version)) {
        o.add("metadata", KvVersionFields.encodeInfo(version));
      }
      versions.add(Integer.toString(version.version()), o);
    }
    JsonObject data = Json.object().add("state", key.lifecycle().state().name());
    if (key.lifecycle().deleteTime() != null) {
      data.add("delete_time", key.lifecycle().deleteTime().toString());
    }
    if (key.exportable()) {
      data.add("exportable", true);
    }
    return data.add("write_id", writeId).add("versions", versions);
  }

  /** The lifecycle of key {@code name} in {@code latest}; throws naming what is malformed. */
  static KvLifecycle decode(String name, KvClient.Versioned latest) {
    JsonObject data = latest.data();
    try {
      Map<Integer, VersionLifecycle> states = new TreeMap<>();
      Map<Integer, KeyVersionInfo> destroyed = new TreeMap<>();
      for (JsonObject.Member member : data.get("versions").asObject()) {
        int number = Integer.parseInt(member.getName());
        JsonObject o = member.getValue().asObject();
        VersionLifecycle lifecycle =
            new VersionLifecycle(
                VersionLifecycle.State.valueOf(o.getString("state", "")),
                instant(o.get("destroy_time")));
        states.put(number, lifecycle);
        if (lifecycle.state() == VersionLifecycle.State.DESTROYED) {
          destroyed.put(
              number,
              KvVersionFields.decodeInfo(name, number, o.get("metadata").asObject())
                  .withLifecycle(lifecycle));
        }
      }
      KeyLifecycle key =
          new KeyLifecycle(
              KeyLifecycle.State.valueOf(data.getString("state", "")),
              instant(data.get("delete_time")));
      return new KvLifecycle(
          key,
          states,
          destroyed,
          latest.version(),
          data.getString("write_id", ""),
          data.getBoolean("exportable", false));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "the lifecycle of key '" + name + "' in Vault (" + path(name) + ") is malformed", e);
    }
  }

  private static Instant instant(JsonValue value) {
    return value == null || value.isNull() ? null : Instant.parse(value.asString());
  }
}

package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonArray;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A key's lifecycle as the KV secret {@code <prefix>/_lifecycle/<name>} holds it, written with
 * check-and-set on its KV version: {@code {"state": "DISABLED", "write_id": "<uuid>", "versions":
 * {"1": {"state": "DESTROYED", "destroy_time": "2026-...", "metadata": {"mode": "gcm", ...}}}}}.
 * Versions not listed are enabled; a destroyed version keeps its fields (as {@link
 * KvVersionFields}, without {@code material}) because its KV version's data is destroyed. A key
 * without the secret is enabled with every version enabled.
 *
 * <p>{@code "destroying": [1]} lists the versions this secret newly marks destroyed whose data in
 * Vault (their {@link KvMigratedVersions} copies, their KV versions) is not known to be destroyed
 * yet: the lifecycle write that destroys a version lists it, and a write after Vault's destroys
 * clears it ({@link KvKeys#finishDestruction}). Every writer carries the list forward from the
 * secret it check-and-sets against, so no interrupted destruction is forgotten. Absent when empty.
 *
 * @param versions the lifecycle of each version not enabled, by number
 * @param destroyed the metadata of each destroyed version, by number
 * @param destroying the destroyed versions whose Vault data may not be destroyed yet
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
    Set<Integer> destroying,
    int kvVersion,
    String writeId,
    boolean exportable) {
  static final KvLifecycle NONE =
      new KvLifecycle(
          KeyLifecycle.ENABLED, Map.of(), Map.of(), Set.of(), 0, "", /* exportable= */ false);

  KvLifecycle {
    versions = Map.copyOf(versions);
    destroyed = Map.copyOf(destroyed);
    destroying = Collections.unmodifiableSortedSet(new TreeSet<>(destroying));
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

  /**
   * {@code key}'s lifecycle, listing {@code destroying} (versions whose Vault data is yet to be
   * destroyed), as a writer is about to store it (KV version 0 and no write id until then).
   */
  static KvLifecycle of(KeyMetadata key, Set<Integer> destroying) {
    Map<Integer, VersionLifecycle> states = new TreeMap<>();
    Map<Integer, KeyVersionInfo> destroyed = new TreeMap<>();
    for (KeyVersionInfo version : key.versions()) {
      if (version.lifecycle().state() != VersionLifecycle.State.ENABLED) {
        states.put(version.version(), version.lifecycle());
      }
      if (LifecycleChange.isDestroyed(version)) {
        destroyed.put(version.version(), version);
      }
    }
    return new KvLifecycle(key.lifecycle(), states, destroyed, destroying, 0, "", key.exportable());
  }

  /**
   * This lifecycle with {@code destroying} as its list of versions yet to be destroyed in Vault.
   */
  KvLifecycle withDestroying(Set<Integer> destroying) {
    return new KvLifecycle(key, versions, destroyed, destroying, kvVersion, writeId, exportable);
  }

  /** The secret's data for this lifecycle, tagged with {@code writeId}. */
  JsonObject encode(String writeId) {
    JsonObject states = Json.object();
    for (Map.Entry<Integer, VersionLifecycle> version : new TreeMap<>(versions).entrySet()) {
      VersionLifecycle lifecycle = version.getValue();
      JsonObject o =
          Json.object()
              .add("state", lifecycle.state().name())
              .add("destroy_time", lifecycle.destroyTime().toString());
      if (isDestroyed(version.getKey())) {
        o.add("metadata", KvVersionFields.encodeInfo(destroyed.get(version.getKey())));
      }
      states.add(Integer.toString(version.getKey()), o);
    }
    JsonObject data = Json.object().add("state", key.state().name());
    if (key.deleteTime() != null) {
      data.add("delete_time", key.deleteTime().toString());
    }
    if (exportable) {
      data.add("exportable", true);
    }
    if (!destroying.isEmpty()) {
      JsonArray numbers = new JsonArray();
      destroying.forEach(version -> numbers.add(version.intValue()));
      data.add("destroying", numbers);
    }
    return data.add("write_id", writeId).add("versions", states);
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
      Set<Integer> destroying = new TreeSet<>();
      JsonValue listed = data.get("destroying");
      if (listed != null) {
        listed.asArray().forEach(number -> destroying.add(number.asInt()));
      }
      KeyLifecycle key =
          new KeyLifecycle(
              KeyLifecycle.State.valueOf(data.getString("state", "")),
              instant(data.get("delete_time")));
      return new KvLifecycle(
          key,
          states,
          destroyed,
          destroying,
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

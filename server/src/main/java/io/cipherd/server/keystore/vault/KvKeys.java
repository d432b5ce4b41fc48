package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a key's metadata from Vault: the KV metadata (current version, policy), each version's
 * fields (remembered, since they never change) and the lifecycle secret ({@link KvLifecycle}),
 * which also holds the fields of destroyed versions, whose KV data is gone.
 *
 * <p>It also finishes a destruction left half done: a replica that won the lifecycle write and died
 * before Vault's destroy leaves a version marked destroyed whose KV data still exists; the next
 * read of the key by any replica destroys it (destroy is idempotent).
 */
final class KvKeys {
  private static final Logger log = LoggerFactory.getLogger(VaultKeyStore.class);

  private final KvClient kv;

  /** Version metadata already read, per key; immutable in Vault, so never stale. */
  private final Map<String, Map<Integer, KeyVersionInfo>> versionInfos = new ConcurrentHashMap<>();

  KvKeys(KvClient kv) {
    this.kv = kv;
  }

  /** A key as read, with the lifecycle secret it was read from (for check-and-set). */
  record Snapshot(KeyMetadata key, KvLifecycle lifecycle) {}

  /** Key {@code name}, or empty if there is no such key. */
  Optional<Snapshot> read(String name) {
    Optional<JsonObject> metadata = kv.readMetadata(name);
    if (metadata.isEmpty() || currentVersion(metadata.get()) == 0) {
      return Optional.empty();
    }
    KvLifecycle lifecycle = lifecycle(name);
    int current = currentVersion(metadata.get());
    List<KeyVersionInfo> versions = new ArrayList<>(current);
    for (int v = 1; v <= current; v++) {
      versions.add(
          lifecycle.isDestroyed(v) ? lifecycle.destroyed().get(v) : lifecycle.apply(info(name, v)));
    }
    finishDestruction(name, metadata.get(), lifecycle);
    return Optional.of(
        new Snapshot(
            new KeyMetadata(
                name,
                versions,
                KvKeySettings.policy(metadata.get()),
                lifecycle.key(),
                lifecycle.exportable()),
            lifecycle));
  }

  /** Key {@code name}'s lifecycle secret; {@link KvLifecycle#NONE} if it has none. */
  KvLifecycle lifecycle(String name) {
    return kv.readLatest(KvLifecycle.path(name))
        .map(latest -> KvLifecycle.decode(name, latest))
        .orElse(KvLifecycle.NONE);
  }

  void remember(String name, KeyVersionInfo info) {
    versionInfos.computeIfAbsent(name, n -> new ConcurrentHashMap<>()).put(info.version(), info);
  }

  static int currentVersion(JsonObject metadata) {
    JsonValue current = metadata.get("current_version");
    return current != null && current.isNumber() ? current.asInt() : 0;
  }

  private KeyVersionInfo info(String name, int version) {
    KeyVersionInfo known = versionInfos.getOrDefault(name, Map.of()).get(version);
    if (known != null) {
      return known;
    }
    JsonObject fields =
        KvMigratedVersions.read(kv, name, version)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "key '"
                            + name
                            + "' version "
                            + version
                            + " is missing from Vault (deleted or destroyed by hand?)"));
    KeyVersionInfo info = KvVersionFields.decodeInfo(name, version, fields);
    remember(name, info);
    return info;
  }

  /**
   * Destroys the KV data of versions the lifecycle says are destroyed but Vault's metadata does
   * not; a failure (a read-only replica's token, an outage) is logged and left to the next read.
   */
  private void finishDestruction(String name, JsonObject metadata, KvLifecycle lifecycle) {
    JsonValue versions = metadata.get("versions");
    List<Integer> undone = new ArrayList<>();
    for (int version : lifecycle.destroyed().keySet()) {
      JsonValue entry =
          versions != null && versions.isObject()
              ? versions.asObject().get(Integer.toString(version))
              : null;
      JsonValue destroyed =
          entry != null && entry.isObject() ? entry.asObject().get("destroyed") : null;
      if (destroyed != null && destroyed.isBoolean() && !destroyed.asBoolean()) {
        undone.add(version);
      }
    }
    if (undone.isEmpty()) {
      return;
    }
    try {
      KvMigratedVersions.destroy(kv, name, undone);
      kv.destroyVersions(name, undone);
      log.info(
          "destroyed the Vault data of versions {} of key '{}', already marked destroyed (finishing"
              + " a destruction another replica is doing, or one a crash interrupted)",
          undone,
          name);
    } catch (RuntimeException e) {
      log.warn(
          "versions {} of key '{}' are marked destroyed but their Vault data is not destroyed yet,"
              + " and destroying it failed ({}); the next read retries",
          undone,
          name,
          e.getMessage());
    }
  }
}

package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a key's metadata from Vault: the KV metadata (current version, policy), each version's
 * fields (remembered, since they never change) and the lifecycle secret ({@link KvLifecycle}),
 * which also holds the fields of destroyed versions, whose KV data is gone.
 *
 * <p>It also finishes a destruction left half done. Destroying a version is three steps: the
 * lifecycle write (check-and-set) that marks it destroyed and lists it as {@code destroying}
 * ({@link KvLifecycle}); Vault's destroy of every KV version of its wrapped copy under {@code
 * _kek/} ({@link KvMigratedVersions}) and of its own KV version's data; a lifecycle write that
 * clears the list. A replica that dies, or a Vault call that fails, anywhere after the first write
 * leaves the version listed, and the next read of the key by any replica destroys both again
 * (destroy is idempotent) and clears the list. A read of a key with nothing listed costs no Vault
 * call more than before: the list is in the lifecycle secret every read fetches anyway.
 *
 * <p>Why a list, not a look at Vault: a migrated version's own KV data was destroyed by {@code
 * cipherd kek migrate}, so its KV {@code destroyed} flag says nothing about its copy, and looking
 * for copies (a LIST of {@code _kek/<name>/}, or a metadata read per destroyed version) would cost
 * every read of every key with a destroyed version, for ever. Why not destroy the copy before the
 * lifecycle write: that write can lose its check-and-set to one that cancelled the destruction, and
 * a migrated version's copy is its only material. A lifecycle secret without the list (written by
 * an older server) is still checked as before: a version marked destroyed whose KV data Vault does
 * not say is destroyed is destroyed, copy first.
 */
final class KvKeys {
  private static final Logger log = LoggerFactory.getLogger(VaultKeyStore.class);

  private final KvClient kv;

  /**
   * How often the same destruction left undone is warned about again while finishing it keeps
   * failing: a replica whose token may not destroy (a read-only replica) fails at every refresh of
   * the key until a writer finishes it, and one line an hour says so as well as one a minute.
   */
  static final Duration UNDONE_WARNING_INTERVAL = Duration.ofHours(1);

  /**
   * Per key, the versions last warned about as left undone, and when ({@link System#nanoTime}); a
   * key leaves it once its destruction is finished here or by another replica.
   */
  private final Map<String, Warned> undoneWarned = new ConcurrentHashMap<>();

  private record Warned(Set<Integer> versions, long atNanos) {}

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
    return Optional.of(
        new Snapshot(
            new KeyMetadata(
                name,
                versions,
                KvKeySettings.policy(metadata.get()),
                lifecycle.key(),
                lifecycle.exportable()),
            finishLeftUndone(name, metadata.get(), lifecycle)));
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
   * Destroys the wrapped copies and the KV data of {@code versions} of key {@code name}, which
   * {@code lifecycle} marks destroyed, then clears them from its {@code destroying} list with a
   * check-and-set write; returns the lifecycle as stored after. A failure of the destroys
   * propagates, the list left as it was; once they are done the destruction is complete, so a lost
   * check-and-set (the writer that won read the list and carried it forward, or cleared it) or a
   * failed clearing write only leaves the list to the next read, which destroys nothing new.
   */
  KvLifecycle finishDestruction(String name, KvLifecycle lifecycle, Set<Integer> versions) {
    List<Integer> sorted = List.copyOf(new TreeSet<>(versions));
    KvMigratedVersions.destroy(kv, name, sorted);
    kv.destroyVersions(name, sorted);
    Set<Integer> left = new TreeSet<>(lifecycle.destroying());
    left.removeAll(sorted);
    if (left.size() == lifecycle.destroying().size()) {
      return lifecycle;
    }
    JsonObject data = lifecycle.withDestroying(left).encode(UUID.randomUUID().toString());
    try {
      if (kv.writeVersion(KvLifecycle.path(name), lifecycle.kvVersion(), data)) {
        return KvLifecycle.decode(name, new KvClient.Versioned(data, lifecycle.kvVersion() + 1));
      }
    } catch (RuntimeException e) {
      log.warn(
          "versions {} of key '{}' are destroyed in Vault, but noting that in its lifecycle failed"
              + " ({}); the next read notes it",
          sorted,
          name,
          e.getMessage());
    }
    return lifecycle;
  }

  /**
   * Finishes the destruction of the versions {@code lifecycle} lists as {@code destroying}, and of
   * those it marks destroyed whose KV data {@code metadata} does not say is destroyed (a lifecycle
   * written by an older server); returns the lifecycle as stored after. A failure (a read-only
   * replica's token, an outage) is logged and left to the next read.
   */
  private KvLifecycle finishLeftUndone(String name, JsonObject metadata, KvLifecycle lifecycle) {
    Set<Integer> undone = new TreeSet<>(lifecycle.destroying());
    undone.addAll(kvDataLeft(metadata, lifecycle));
    if (undone.isEmpty()) {
      undoneWarned.remove(name);
      return lifecycle;
    }
    try {
      KvLifecycle after = finishDestruction(name, lifecycle, undone);
      undoneWarned.remove(name);
      log.info(
          "destroyed the Vault data (wrapped copies under _kek/, KV data) of versions {} of key"
              + " '{}', already marked destroyed (finishing a destruction another replica is doing,"
              + " or one a crash or a Vault error interrupted)",
          undone,
          name);
      return after;
    } catch (RuntimeException e) {
      if (warnAgain(name, undone)) {
        log.warn(
            "versions {} of key '{}' are marked destroyed but their Vault data (wrapped copies, KV"
                + " data) is not known to be destroyed yet, and destroying it failed ({}); every"
                + " read retries, and this replica says so again within {} if it still fails"
                + " (a replica whose token may not destroy leaves it to one that may)",
            undone,
            name,
            e.getMessage(),
            UNDONE_WARNING_INTERVAL);
      } else {
        log.debug(
            "versions {} of key '{}': finishing their destruction failed again ({})",
            undone,
            name,
            e.getMessage());
      }
      return lifecycle;
    }
  }

  /**
   * Whether finishing {@code undone} of key {@code name} failing is news: other versions than last
   * time, or the same ones {@link #UNDONE_WARNING_INTERVAL} after the last warning.
   */
  private boolean warnAgain(String name, Set<Integer> undone) {
    long now = System.nanoTime();
    Warned last = undoneWarned.get(name);
    if (last != null
        && last.versions().equals(undone)
        && now - last.atNanos() < UNDONE_WARNING_INTERVAL.toNanos()) {
      return false;
    }
    undoneWarned.put(name, new Warned(Set.copyOf(undone), now));
    return true;
  }

  /** The versions {@code lifecycle} marks destroyed whose KV version Vault says is not. */
  private static List<Integer> kvDataLeft(JsonObject metadata, KvLifecycle lifecycle) {
    JsonValue versions = metadata.get("versions");
    List<Integer> left = new ArrayList<>();
    for (int version : lifecycle.destroyed().keySet()) {
      JsonValue entry =
          versions != null && versions.isObject()
              ? versions.asObject().get(Integer.toString(version))
              : null;
      JsonValue destroyed =
          entry != null && entry.isObject() ? entry.asObject().get("destroyed") : null;
      if (destroyed != null && destroyed.isBoolean() && !destroyed.asBoolean()) {
        left.add(version);
      }
    }
    return left;
  }
}

package io.cipherd.server.keycache;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.fpe.Ff1Key;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.crypto.SecretKey;

/**
 * A key's metadata and the versions loaded so far; a new instance replaces it when the metadata
 * changes.
 */
final class CachedKey {
  private final KeyMetadata metadata;
  private final KeyStore store;
  private final ConcurrentMap<Integer, UsableKey> loaded;

  CachedKey(KeyMetadata metadata, KeyStore store) {
    this(metadata, store, new ConcurrentHashMap<>());
  }

  private CachedKey(
      KeyMetadata metadata, KeyStore store, ConcurrentMap<Integer, UsableKey> loaded) {
    this.metadata = metadata;
    this.store = store;
    this.loaded = loaded;
  }

  KeyMetadata metadata() {
    return metadata;
  }

  boolean hasLoaded(int version) {
    return loaded.containsKey(version);
  }

  /**
   * The loaded version, reading its bytes from the store the first time: an encryption key's
   * prepared for its mode and named by its header, a format-preserving key's with its FF1 engines
   * ({@link Ff1Key}), an index or legacy key's as they are.
   */
  UsableKey usable(KeyVersionInfo info) {
    UsableKey key = loaded.get(info.version());
    if (key != null) {
      return key;
    }
    return loaded.computeIfAbsent(
        info.version(),
        v -> {
          SecretKey material = store.readMaterial(metadata.name(), info);
          CipherMode mode = info.mode();
          if (info.type() == KeyType.FF1) {
            // FF1's engines, set up once per version, wiped with it.
            return new UsableKey(
                new KeyVersionRef(metadata.name(), v, info.type()), Ff1Key.of(material));
          }
          return mode == null
              ? new UsableKey(new KeyVersionRef(metadata.name(), v, info.type()), material)
              : new UsableKey(
                  new EnvelopeHeader(metadata.name(), v, mode), mode.family().prepare(material));
        });
  }

  /** Overwrites every loaded version's bytes; the cache must no longer hand this key out. */
  void destroy() {
    loaded.values().forEach(UsableKey::destroy);
    loaded.clear();
  }

  /**
   * The same key with new metadata, keeping the versions already loaded (versions never change),
   * except those {@code newer} no longer lets serve: a version scheduled for destruction or
   * destroyed, or every version of a key being deleted or deleted. Their bytes are overwritten
   * here, so a destruction on the store leaves no copy in this replica's memory, and {@code
   * onWiped} is told (to drop the pooled ciphers' key schedules); a cancelled one reads them from
   * the store again on the next use.
   */
  CachedKey withMetadata(KeyMetadata newer, Runnable onWiped) {
    boolean wiped = false;
    for (Integer version : List.copyOf(loaded.keySet())) {
      if (!mayHoldBytes(newer, version)) {
        UsableKey evicted = loaded.remove(version);
        if (evicted != null) {
          evicted.destroy();
          wiped = true;
        }
      }
    }
    if (wiped) {
      onWiped.run();
    }
    return new CachedKey(newer, store, loaded);
  }

  /** Whether {@code key} lets {@code version}'s bytes stay in memory (or be loaded). */
  static boolean mayHoldBytes(KeyMetadata key, int version) {
    KeyLifecycle.State state = key.lifecycle().state();
    return state != KeyLifecycle.State.DELETION_SCHEDULED
        && state != KeyLifecycle.State.DELETED
        && key.hasVersion(version)
        && key.version(version).lifecycle().usable();
  }
}

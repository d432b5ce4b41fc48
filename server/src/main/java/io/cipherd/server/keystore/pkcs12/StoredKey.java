package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.VersionLifecycle;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@code keys.json} holds of one key: its policy, its lifecycle, the state of each version
 * that is not enabled, and the whole metadata of each destroyed version, whose PKCS12 entry (where
 * the metadata of a live version rides) is gone.
 *
 * @param versionStates the lifecycle of each version not enabled, by number
 * @param destroyedVersions the metadata of each destroyed version, by number
 * @param exportable whether BackupKey may write the key out
 */
record StoredKey(
    KeyPolicy policy,
    KeyLifecycle lifecycle,
    SortedMap<Integer, VersionLifecycle> versionStates,
    SortedMap<Integer, KeyVersionInfo> destroyedVersions,
    boolean exportable) {
  StoredKey {
    versionStates = Collections.unmodifiableSortedMap(new TreeMap<>(versionStates));
    destroyedVersions = Collections.unmodifiableSortedMap(new TreeMap<>(destroyedVersions));
  }

  /** An enabled key with every version enabled, as format 1 files describe every key. */
  static StoredKey enabled(KeyPolicy policy) {
    return new StoredKey(
        policy, KeyLifecycle.ENABLED, new TreeMap<>(), new TreeMap<>(), /* exportable= */ false);
  }

  /** What to store of {@code key}. */
  static StoredKey of(KeyMetadata key) {
    SortedMap<Integer, VersionLifecycle> states = new TreeMap<>();
    SortedMap<Integer, KeyVersionInfo> destroyed = new TreeMap<>();
    for (KeyVersionInfo version : key.versions()) {
      if (version.lifecycle().state() != VersionLifecycle.State.ENABLED) {
        states.put(version.version(), version.lifecycle());
      }
      if (LifecycleChange.isDestroyed(version)) {
        destroyed.put(version.version(), version);
      }
    }
    return new StoredKey(key.policy(), key.lifecycle(), states, destroyed, key.exportable());
  }
}

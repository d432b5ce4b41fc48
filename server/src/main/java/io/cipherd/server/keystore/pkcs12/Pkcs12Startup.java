package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore.PasswordProtection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a {@link Pkcs12KeyStore}'s directory to a committed state at open: creates and locks the
 * directory, deletes temp files of interrupted writes, loads both files and reconciles them.
 */
final class Pkcs12Startup {
  private static final Logger log = LoggerFactory.getLogger(Pkcs12KeyStore.class);

  /**
   * What open found: the held directory lock, the loaded p12 file and every key's metadata by name
   * (unmodifiable).
   */
  record Loaded(DirectoryLock lock, Pkcs12File p12, SortedMap<String, KeyMetadata> keys) {}

  private Pkcs12Startup() {}

  static Loaded load(Path dir, Path p12, Path policyFile, PasswordProtection password) {
    try {
      AtomicFiles.createPrivateDirectory(dir);
    } catch (IOException e) {
      throw new KeyStoreUnavailableException(
          "cannot create key store directory " + dir + ": " + e, e);
    }
    // Locked before the cleanup below, which must never delete a live process's temp file.
    DirectoryLock lock = DirectoryLock.acquire(dir);
    try {
      deleteLeftovers(dir, p12, policyFile);
      Pkcs12File file = Pkcs12File.load(p12, password);
      Map<String, SortedMap<Integer, KeyVersionInfo>> entries = file.versions();
      SortedMap<String, KeyMetadata> keys =
          reconcile(entries, readPolicies(policyFile), p12, policyFile);
      eraseDestroyed(file, entries, keys);
      log.info(
          "opened key store {}: {} keys, {} versions",
          p12,
          keys.size(),
          keys.values().stream().mapToInt(KeyMetadata::currentVersion).sum());
      return new Loaded(lock, file, keys);
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
  }

  private static void deleteLeftovers(Path dir, Path p12, Path policyFile) {
    try {
      // A temp file exists only if a process died before its rename: it never became the state.
      int leftovers =
          AtomicFiles.deleteLeftoverTemps(p12)
              + AtomicFiles.deleteLeftoverTemps(policyFile)
              + AtomicFiles.deleteLeftoverTemps(dir.resolve(AuditHeadsFile.NAME));
      if (leftovers > 0) {
        log.warn(
            "deleted {} temp file(s) in {} left by an interrupted write; nothing committed was lost",
            leftovers,
            dir);
      }
      warnIfShared(p12);
      warnIfShared(policyFile);
    } catch (IOException e) {
      throw new KeyStoreUnavailableException(
          "cannot clean up key store directory " + dir + ": " + e, e);
    }
  }

  /**
   * Every key with its policy and lifecycle: the keys the p12 has entries of, and those whose
   * versions are all destroyed (a deleted key's tombstone). Stored data of keys with neither is
   * dropped (a create was interrupted).
   */
  private static SortedMap<String, KeyMetadata> reconcile(
      Map<String, SortedMap<Integer, KeyVersionInfo>> entries,
      Map<String, StoredKey> stored,
      Path p12,
      Path policyFile) {
    SortedMap<String, KeyMetadata> keys = new TreeMap<>();
    Set<String> names = new TreeSet<>(entries.keySet());
    stored.forEach(
        (name, key) -> {
          if (!key.destroyedVersions().isEmpty()) {
            names.add(name);
          }
        });
    for (String name : names) {
      StoredKey key = stored.get(name);
      if (key == null) {
        // Never left by a crash (keys.json is written first); keys.json was lost or rolled back.
        log.warn(
            "key '{}' in {} has no policy in {}; using the default policy", name, p12, policyFile);
        key = StoredKey.enabled(KeyPolicy.DEFAULT);
      }
      keys.put(name, metadata(name, entries.getOrDefault(name, new TreeMap<>()), key, p12));
    }
    stored.keySet().stream()
        .filter(name -> !keys.containsKey(name))
        .forEach(
            name ->
                log.info(
                    "ignoring the policy of key '{}': {} has no version of it (a create was interrupted)",
                    name,
                    p12));
    return Collections.unmodifiableSortedMap(keys);
  }

  /** One key's versions: live ones from their entries, destroyed ones from keys.json. */
  private static KeyMetadata metadata(
      String name, SortedMap<Integer, KeyVersionInfo> entries, StoredKey key, Path p12) {
    SortedMap<Integer, KeyVersionInfo> all = new TreeMap<>(entries);
    all.putAll(key.destroyedVersions());
    key.versionStates()
        .forEach(
            (number, lifecycle) -> {
              KeyVersionInfo version = all.get(number);
              if (version == null) {
                throw new KeyStoreUnavailableException(
                    p12
                        + " is inconsistent: it has no version "
                        + number
                        + " of key '"
                        + name
                        + "', which keys.json says is "
                        + lifecycle.state());
              }
              all.put(number, version.withLifecycle(lifecycle));
            });
    if (all.isEmpty() || all.lastKey() != all.size()) {
      throw new KeyStoreUnavailableException(
          p12
              + " is inconsistent: key '"
              + name
              + "' has versions "
              + all.keySet()
              + ", not 1 to "
              + all.size()
              + "; cipherd removes only destroyed versions");
    }
    return new KeyMetadata(
        name, List.copyOf(all.values()), key.policy(), key.lifecycle(), key.exportable());
  }

  /**
   * Erases the entries of versions keys.json says are destroyed: left if the process died between
   * marking them destroyed and rewriting the p12 without them.
   */
  private static void eraseDestroyed(
      Pkcs12File file,
      Map<String, SortedMap<Integer, KeyVersionInfo>> entries,
      Map<String, KeyMetadata> keys) {
    entries.forEach(
        (name, present) -> {
          List<Integer> leftover =
              keys.get(name).versions().stream()
                  .filter(v -> LifecycleChange.isDestroyed(v) && present.containsKey(v.version()))
                  .map(KeyVersionInfo::version)
                  .toList();
          if (!leftover.isEmpty()) {
            file.eraseVersions(name, leftover);
            log.warn(
                "erased the entries of destroyed versions {} of key '{}' from {}, left by an"
                    + " interrupted destruction",
                leftover,
                name,
                file.path());
          }
        });
  }

  private static Map<String, StoredKey> readPolicies(Path file) {
    try {
      return PolicyFile.read(file);
    } catch (IOException | IllegalArgumentException e) {
      throw new KeyStoreUnavailableException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  private static void warnIfShared(Path file) throws IOException {
    if (Files.exists(file) && AtomicFiles.isAccessibleByOthers(file)) {
      log.warn(
          "{} is accessible to group or others; it should be 0600 (the next write makes it so)",
          file);
    }
  }
}

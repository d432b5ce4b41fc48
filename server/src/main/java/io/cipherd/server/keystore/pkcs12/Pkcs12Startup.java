package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore.PasswordProtection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
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
      SortedMap<String, KeyMetadata> keys =
          reconcile(file.versions(), readPolicies(policyFile), p12, policyFile);
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
          AtomicFiles.deleteLeftoverTemps(p12) + AtomicFiles.deleteLeftoverTemps(policyFile);
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

  /** Every key in the p12 with its policy; policies of keys the p12 lacks are dropped. */
  private static SortedMap<String, KeyMetadata> reconcile(
      Map<String, List<KeyVersionInfo>> versions,
      Map<String, KeyPolicy> policies,
      Path p12,
      Path policyFile) {
    SortedMap<String, KeyMetadata> keys = new TreeMap<>();
    versions.forEach(
        (name, list) -> {
          KeyPolicy policy = policies.get(name);
          if (policy == null) {
            // Never left by a crash (policies are written first); keys.json was lost or rolled
            // back.
            log.warn(
                "key '{}' in {} has no policy in {}; using the default policy",
                name,
                p12,
                policyFile);
            policy = KeyPolicy.DEFAULT;
          }
          keys.put(name, new KeyMetadata(name, list, policy));
        });
    policies.keySet().stream()
        .filter(name -> !keys.containsKey(name))
        .forEach(
            name ->
                log.info(
                    "ignoring the policy of key '{}': {} has no version of it (a create was interrupted)",
                    name,
                    p12));
    return Collections.unmodifiableSortedMap(keys);
  }

  private static Map<String, KeyPolicy> readPolicies(Path file) {
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

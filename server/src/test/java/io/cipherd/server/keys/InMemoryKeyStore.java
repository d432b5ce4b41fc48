package io.cipherd.server.keys;

import io.cipherd.server.crypto.NonceSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import javax.crypto.SecretKey;

/** A {@link KeyStore} in memory, with the same contract as the real ones, for fast unit tests. */
public final class InMemoryKeyStore implements KeyStore, UsageStore, AuditStore {
  private final Map<String, KeyMetadata> keys = new TreeMap<>();
  private final Map<String, Map<Integer, VersionUsage>> usage = new TreeMap<>();

  /**
   * Each key's material by version - 1; copies, so callers wiping their arrays change nothing here.
   */
  private final Map<String, List<byte[]>> material = new TreeMap<>();

  private byte[] auditKey;

  @Override
  public synchronized List<String> listKeyNames() {
    return List.copyOf(keys.keySet());
  }

  @Override
  public synchronized Optional<KeyMetadata> readKey(String name) {
    return Optional.ofNullable(keys.get(name));
  }

  @Override
  public synchronized SecretKey readMaterial(String name, KeyVersionInfo version) {
    KeyMetadata metadata = keys.get(name);
    if (metadata == null) {
      throw KeyNotFoundException.key(name);
    }
    KeyVersionInfo stored = metadata.version(version.version());
    if (stored.lifecycle().state() == VersionLifecycle.State.DESTROYED) {
      throw KeyUnavailableException.version(name, stored.version(), stored.lifecycle());
    }
    return new WipeableSecretKey(
        material.get(name).get(stored.version() - 1).clone(), stored.keyAlgorithm());
  }

  @Override
  public synchronized KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    KeyMetadata created = new KeyMetadata(name, List.of(first.info()), policy);
    if (keys.containsKey(name)) {
      throw new KeyAlreadyExistsException(name);
    }
    List<byte[]> versions = new ArrayList<>();
    versions.add(first.material().clone());
    material.put(name, versions);
    keys.put(name, created);
    return created;
  }

  @Override
  public synchronized KeyMetadata addVersion(
      String name, int expectedCurrentVersion, NewKeyVersion next) {
    KeyMetadata now = keys.get(name);
    if (now == null) {
      throw KeyNotFoundException.key(name);
    }
    if (now.currentVersion() != expectedCurrentVersion) {
      throw new ConcurrentKeyUpdateException(name, expectedCurrentVersion);
    }
    KeyMetadata updated = now.withVersion(next.info());
    material.get(name).add(next.material().clone());
    keys.put(name, updated);
    return updated;
  }

  @Override
  public synchronized KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    KeyMetadata now = keys.get(name);
    if (now == null) {
      throw KeyNotFoundException.key(name);
    }
    KeyMetadata updated = now.withPolicy(policy);
    keys.put(name, updated);
    return updated;
  }

  @Override
  public synchronized KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    KeyMetadata now = keys.get(expected.name());
    if (now == null) {
      throw KeyNotFoundException.key(expected.name());
    }
    for (int erased : LifecycleChange.newlyDestroyed(now, expected, next)) {
      byte[] bytes = material.get(expected.name()).get(erased - 1);
      Arrays.fill(bytes, (byte) 0);
      material.get(expected.name()).set(erased - 1, null);
    }
    KeyMetadata written = now.exportable() ? next.asExportable() : next;
    keys.put(expected.name(), written);
    return written;
  }

  @Override
  public synchronized KeyMetadata setExportable(String name) {
    KeyMetadata now = keys.get(name);
    if (now == null) {
      throw KeyNotFoundException.key(name);
    }
    KeyMetadata updated = now.asExportable();
    keys.put(name, updated);
    return updated;
  }

  @Override
  public synchronized KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    if (keys.containsKey(key.name())) {
      throw new KeyAlreadyExistsException(key.name());
    }
    List<byte[]> versions = new ArrayList<>();
    Iterator<NewKeyVersion> bytes = live.iterator();
    for (KeyVersionInfo version : key.versions()) {
      versions.add(LifecycleChange.isDestroyed(version) ? null : bytes.next().material().clone());
    }
    material.put(key.name(), versions);
    keys.put(key.name(), key);
    return key;
  }

  /** Whether version {@code version}'s bytes are still held (false once destroyed). */
  public synchronized boolean holdsMaterial(String name, int version) {
    return material.containsKey(name) && material.get(name).get(version - 1) != null;
  }

  @Override
  public synchronized Map<Integer, VersionUsage> readUsage(String name) {
    return Map.copyOf(usage.getOrDefault(name, Map.of()));
  }

  @Override
  public synchronized Map<Integer, VersionUsage> addUsage(
      String name, Map<Integer, VersionUsage> delta) {
    Map<Integer, VersionUsage> merged = usage.computeIfAbsent(name, n -> new TreeMap<>());
    delta.forEach((version, counts) -> merged.merge(version, counts, VersionUsage::plus));
    return Map.copyOf(merged);
  }

  @Override
  public String toString() {
    return "InMemoryKeyStore[" + keys.size() + " keys]";
  }

  @Override
  public synchronized byte[] auditKeyMaterial() {
    if (auditKey == null) {
      auditKey = NonceSource.bytes(32);
    }
    return auditKey.clone();
  }

  private final Map<String, AuditHead> auditHeads = new TreeMap<>();

  @Override
  public synchronized Optional<AuditHead> readAuditHead(String trail) {
    return Optional.ofNullable(auditHeads.get(trail));
  }

  @Override
  public synchronized boolean writeAuditHead(AuditHead expected, AuditHead next) {
    if (!Objects.equals(auditHeads.get(next.trail()), expected)) {
      return false;
    }
    auditHeads.put(next.trail(), next);
    return true;
  }
}

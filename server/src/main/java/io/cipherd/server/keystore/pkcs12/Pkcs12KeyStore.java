package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionUsage;
import io.cipherd.server.keys.WipeableSecretKey;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore.PasswordProtection;
import java.security.KeyStore.SecretKeyEntry;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import javax.crypto.SecretKey;

/**
 * The embedded key store of a single node: key versions in a PKCS12 file, policies in a JSON file
 * beside it.
 *
 * <p><b>Layout.</b> {@code keys.p12} holds one secret-key entry per version, alias {@code
 * NAME/vVERSION}, with the version's mode, key size, creation time and imported flag (and a legacy
 * version's cipher, IV convention and fixed IV) as entry attributes ({@link VersionEntries});
 * {@code keytool -list -storetype PKCS12} lists it. Because a version carries its own metadata,
 * adding one is a single atomic file write. {@code keys.json} holds each key's policy ({@link
 * PolicyFile}). Policies live apart because they change in place, while PKCS12 entries are per
 * version and never rewritten; putting a policy in the p12 would take a fake key entry that {@code
 * keytool} would list as a key. The JSON also lets operators read policies without the password.
 *
 * <p><b>Crash safety.</b> Each file is replaced atomically ({@link AtomicFiles}). CreateKey writes
 * the policy <em>before</em> the version, so the p12 rename is the one moment a key starts to
 * exist: a crash between the two leaves a policy for a key that does not exist, which {@link #open}
 * ignores and the next policy write drops. Rotation and policy updates are one write each. A key in
 * the p12 without a policy (only possible if {@code keys.json} is lost or rolled back) gets {@link
 * KeyPolicy#DEFAULT} and a warning. Temp files left by a crash before a rename are deleted at open.
 *
 * <p><b>Concurrency.</b> This process is the only writer: {@link DirectoryLock} makes a second open
 * of the same directory fail, since it would drop this store's writes. Metadata reads use an
 * immutable snapshot without locking; writes, and reads of key bytes from the JDK key store object
 * (which is not thread-safe), take one lock.
 */
public final class Pkcs12KeyStore implements KeyStore {
  static final String KEYSTORE_FILE = "keys.p12";
  static final String POLICY_FILE = "keys.json";

  private final Path dir;
  private final Path p12Path;
  private final Path policyPath;
  private final Path usagePath;

  /** Guarded by {@link #lock}; read from {@link #usagePath} on first use. */
  private Map<String, Map<Integer, VersionUsage>> usage;

  private final PasswordProtection password;
  private final DirectoryLock directoryLock;
  private final ReentrantLock lock = new ReentrantLock();

  /** Guarded by {@link #lock}. */
  private final java.security.KeyStore jks;

  /** Immutable; replaced under {@link #lock} after each committed write. */
  private volatile SortedMap<String, KeyMetadata> keys;

  private Pkcs12KeyStore(Path dir, PasswordProtection password, Pkcs12Startup.Loaded loaded) {
    this.dir = dir;
    this.p12Path = dir.resolve(KEYSTORE_FILE);
    this.policyPath = dir.resolve(POLICY_FILE);
    this.usagePath = dir.resolve("usage.json");
    this.password = password;
    this.directoryLock = loaded.lock();
    this.jks = loaded.jks();
    this.keys = loaded.keys();
  }

  /**
   * Opens (or starts) the store in {@code dataDir}, creating the directory 0700 if missing. The
   * password is copied; the caller may wipe its array.
   */
  public static Pkcs12KeyStore open(Path dataDir, char[] password) {
    Path dir = dataDir.toAbsolutePath();
    Path p12 = dir.resolve(KEYSTORE_FILE);
    if (password == null || password.length == 0) {
      throw new KeyStoreUnavailableException(
          "no password given for " + p12 + "; set CIPHERD_KEYSTORE_PASSWORD", null);
    }
    PasswordProtection protection = new PasswordProtection(password.clone());
    return new Pkcs12KeyStore(
        dir, protection, Pkcs12Startup.load(dir, p12, dir.resolve(POLICY_FILE), protection));
  }

  @Override
  public List<String> listKeyNames() {
    return List.copyOf(keys.keySet());
  }

  @Override
  public Optional<KeyMetadata> readKey(String name) {
    return Optional.ofNullable(keys.get(name));
  }

  @Override
  public SecretKey readMaterial(String name, KeyVersionInfo version) {
    KeyMetadata metadata = keys.get(name);
    if (metadata == null) {
      throw KeyNotFoundException.key(name);
    }
    KeyVersionInfo stored = metadata.version(version.version());
    String alias = VersionEntries.alias(name, stored.version());
    SecretKeyEntry entry;
    lock.lock();
    try {
      checkOpen();
      entry = (SecretKeyEntry) jks.getEntry(alias, password);
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot read entry '" + alias + "' of " + p12Path, e);
    } finally {
      lock.unlock();
    }
    if (entry == null) {
      throw new KeyStoreUnavailableException(
          p12Path + " has no entry '" + alias + "' though its metadata was loaded", null);
    }
    byte[] bytes = entry.getSecretKey().getEncoded();
    if (bytes.length * 8 != stored.keySizeBits()) {
      Arrays.fill(bytes, (byte) 0);
      throw new KeyStoreUnavailableException(
          "entry '"
              + alias
              + "' of "
              + p12Path
              + " holds a "
              + bytes.length * 8
              + "-bit key but its metadata says "
              + stored.keySizeBits(),
          null);
    }
    // The key takes over this copy, so the key ring can overwrite it on eviction.
    return new WipeableSecretKey(bytes, stored.keyAlgorithm());
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    KeyMetadata created = new KeyMetadata(name, List.of(first.info()), policy);
    lock.lock();
    try {
      if (keys.containsKey(name)) {
        throw new KeyAlreadyExistsException(name);
      }
      checkOpen();
      // Policy first, and durable, before the p12 rename that makes the key exist (see the class
      // comment): no crash or power loss can keep the version but lose its policy.
      writePolicies(created);
      syncDirectory(
          "wrote the policy of key '"
              + name
              + "' but could not sync "
              + dir
              + "; the key was not created");
      writeVersion(name, first);
      return publish(created);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    lock.lock();
    try {
      checkOpen();
      KeyMetadata now = keys.get(name);
      if (now == null) {
        throw KeyNotFoundException.key(name);
      }
      if (now.currentVersion() != expectedCurrentVersion) {
        throw new ConcurrentKeyUpdateException(name, expectedCurrentVersion);
      }
      KeyMetadata updated = now.withVersion(next.info()); // rejects a number other than current + 1
      writeVersion(name, next);
      return publish(updated);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    lock.lock();
    try {
      checkOpen();
      KeyMetadata now = keys.get(name);
      if (now == null) {
        throw KeyNotFoundException.key(name);
      }
      KeyMetadata updated = now.withPolicy(policy);
      writePolicies(updated);
      return publish(updated);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Map<Integer, VersionUsage> readUsage(String name) {
    lock.lock();
    try {
      checkOpen();
      return Map.copyOf(usage().getOrDefault(name, Map.of()));
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
    lock.lock();
    try {
      checkOpen();
      Map<String, Map<Integer, VersionUsage>> all = usage();
      Map<Integer, VersionUsage> merged = new java.util.HashMap<>(all.getOrDefault(name, Map.of()));
      delta.forEach((version, counts) -> merged.merge(version, counts, VersionUsage::plus));
      Map<String, Map<Integer, VersionUsage>> next = new java.util.HashMap<>(all);
      next.put(name, merged);
      try {
        AtomicFiles.replace(usagePath, out -> out.write(UsageFile.encode(next)));
      } catch (Exception e) {
        throw new KeyStoreUnavailableException(
            "cannot write " + usagePath + "; usage kept for the next merge: " + e, e);
      }
      usage = next;
      return Map.copyOf(merged);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Under {@link #lock}: the usage counts, read on first use; a damaged file starts them afresh.
   */
  private Map<String, Map<Integer, VersionUsage>> usage() {
    if (usage == null) {
      try {
        usage = UsageFile.read(usagePath);
      } catch (IOException | RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(Pkcs12KeyStore.class)
            .warn(
                "{} is unreadable ({}); usage counts start again from zero",
                usagePath,
                e.getMessage());
        usage = new java.util.HashMap<>();
      }
    }
    return usage;
  }

  /** Wipes the password and unlocks the directory; the store cannot be used afterwards. */
  @Override
  public void close() {
    lock.lock();
    try {
      password.destroy();
    } catch (javax.security.auth.DestroyFailedException e) {
      // PasswordProtection.destroy clears its array and never fails.
    } finally {
      directoryLock.close();
      lock.unlock();
    }
  }

  /**
   * Adds one entry to the p12 file; on any failure before the rename, the file and memory are
   * unchanged.
   */
  private void writeVersion(String name, NewKeyVersion version) {
    String alias = VersionEntries.alias(name, version.info().version());
    try {
      if (jks.containsAlias(alias)) {
        throw new IllegalStateException(
            p12Path + " already holds '" + alias + "'; a version is never overwritten");
      }
      jks.setEntry(
          alias,
          new SecretKeyEntry(
              VersionEntries.storedKey(version.info(), version.material()),
              VersionEntries.attributes(version.info())),
          password);
    } catch (GeneralSecurityException e) {
      throw new KeyStoreUnavailableException("cannot add entry '" + alias + "' for " + p12Path, e);
    }
    try {
      AtomicFiles.replace(p12Path, out -> jks.store(out, password.getPassword()));
    } catch (Exception e) {
      try {
        jks.deleteEntry(alias); // It never reached the file; memory must match the file again.
      } catch (GeneralSecurityException ignored) {
        // Removing an entry from the in-memory PKCS12 store does not fail.
      }
      throw new KeyStoreUnavailableException(
          "cannot write " + p12Path + "; nothing was stored: " + e, e);
    }
  }

  /**
   * Replaces keys.json with every existing key's policy and {@code changed}'s; unchanged if this
   * throws.
   */
  private void writePolicies(KeyMetadata changed) {
    Map<String, KeyPolicy> policies = new TreeMap<>();
    keys.forEach((name, metadata) -> policies.put(name, metadata.policy()));
    policies.put(changed.name(), changed.policy());
    try {
      AtomicFiles.replace(policyPath, out -> out.write(PolicyFile.encode(policies)));
    } catch (Exception e) {
      throw new KeyStoreUnavailableException(
          "cannot write " + policyPath + "; nothing was changed: " + e, e);
    }
  }

  /**
   * Makes a written change visible and durable; memory then matches the files, even if the sync
   * fails.
   */
  private KeyMetadata publish(KeyMetadata updated) {
    SortedMap<String, KeyMetadata> next = new TreeMap<>(keys);
    next.put(updated.name(), updated);
    keys = Collections.unmodifiableSortedMap(next);
    syncDirectory(
        "wrote key '"
            + updated.name()
            + "' to "
            + dir
            + " but could not sync the directory; the change may not survive a power loss");
    return updated;
  }

  private void syncDirectory(String problem) {
    try {
      AtomicFiles.syncDirectory(dir);
    } catch (IOException e) {
      throw new KeyStoreUnavailableException(problem + ": " + e, e);
    }
  }

  private void checkOpen() {
    if (password.isDestroyed()) {
      throw new KeyStoreUnavailableException(p12Path + " was closed", null);
    }
  }

  @Override
  public String toString() {
    return "Pkcs12KeyStore[" + p12Path + "]";
  }
}

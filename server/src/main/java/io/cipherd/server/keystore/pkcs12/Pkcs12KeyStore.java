package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionUsage;
import java.io.IOException;
import java.nio.file.Path;
import java.security.KeyStore.PasswordProtection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * version's cipher, IV convention and fixed IV) as entry attributes ({@link VersionEntries}), read
 * and added by {@link Pkcs12File}; {@code keytool -list -storetype PKCS12} lists it. Because a
 * version carries its own metadata, adding one is a single atomic file write. {@code keys.json}
 * holds each key's policy ({@link PolicyFile}). Policies live apart because they change in place,
 * while PKCS12 entries are per version and never rewritten; putting a policy in the p12 would take
 * a fake key entry that {@code keytool} would list as a key. The JSON also lets operators read
 * policies without the password. It also holds lifecycle states, and the metadata of destroyed
 * versions, whose entries are removed from the p12. {@code usage.json} holds the merged usage
 * counts ({@link UsageTotals}), {@code audit-heads.json} the audit trails' anchors ({@link
 * AuditHeadsFile}).
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
public final class Pkcs12KeyStore implements KeyStore, UsageStore, AuditStore {
  static final String KEYSTORE_FILE = "keys.p12";
  static final String POLICY_FILE = "keys.json";

  private final Path dir;
  private final Path policyPath;
  private final DirectoryLock directoryLock;
  private final ReentrantLock lock = new ReentrantLock();

  /** Guarded by {@link #lock}. */
  private final Pkcs12File p12;

  /** Guarded by {@link #lock}. */
  private final UsageTotals usage;

  /** Read on first use; guarded by {@link #lock}. */
  private Map<String, AuditHead> auditHeads;

  /** Immutable; replaced under {@link #lock} after each committed write. */
  private volatile SortedMap<String, KeyMetadata> keys;

  private Pkcs12KeyStore(Path dir, Pkcs12Startup.Loaded loaded) {
    this.dir = dir;
    this.policyPath = dir.resolve(POLICY_FILE);
    this.usage = new UsageTotals(dir.resolve("usage.json"));
    this.directoryLock = loaded.lock();
    this.p12 = loaded.p12();
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
          "no password given for " + p12 + "; set CIPHERD_KEYSTORE_PASSWORD");
    }
    PasswordProtection protection = new PasswordProtection(password.clone());
    return new Pkcs12KeyStore(
        dir, Pkcs12Startup.load(dir, p12, dir.resolve(POLICY_FILE), protection));
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
    lock.lock(); // also orders this read after any destruction of the version
    try {
      KeyMetadata metadata = keys.get(name);
      if (metadata == null) {
        throw KeyNotFoundException.key(name);
      }
      KeyVersionInfo stored = metadata.version(version.version());
      if (LifecycleChange.isDestroyed(stored)) {
        throw KeyUnavailableException.version(name, stored.version(), stored.lifecycle());
      }
      return p12.readKey(name, stored);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata createKey(String name, NewKeyVersion first, KeyPolicy policy) {
    KeyMetadata created = new KeyMetadata(name, List.of(first.info()), policy);
    lock.lock();
    try {
      writeNewKeysPolicy(created, "created");
      p12.addVersion(name, first);
      return publish(created);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata addVersion(String name, int expectedCurrentVersion, NewKeyVersion next) {
    lock.lock();
    try {
      p12.checkOpen();
      KeyMetadata now = keys.get(name);
      if (now == null) {
        throw KeyNotFoundException.key(name);
      }
      if (now.currentVersion() != expectedCurrentVersion) {
        throw new ConcurrentKeyUpdateException(name, expectedCurrentVersion);
      }
      KeyMetadata updated = now.withVersion(next.info()); // rejects a number other than current + 1
      p12.addVersion(name, next);
      return publish(updated);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    lock.lock();
    try {
      p12.checkOpen();
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

  /**
   * Writes keys.json (and syncs it) before erasing any entry, so a crash between the two leaves a
   * version marked destroyed whose entry the next {@link #open} erases, never bytes without a
   * record.
   */
  @Override
  public KeyMetadata updateLifecycle(KeyMetadata expected, KeyMetadata next) {
    lock.lock();
    try {
      p12.checkOpen();
      KeyMetadata now = keys.get(expected.name());
      if (now == null) {
        throw KeyNotFoundException.key(expected.name());
      }
      List<Integer> erase = LifecycleChange.newlyDestroyed(now, expected, next);
      // The flag is never cleared, whatever the writer read before it was set.
      KeyMetadata written = now.exportable() ? next.asExportable() : next;
      writePolicies(written);
      publish(written);
      p12.eraseVersions(next.name(), erase);
      syncDirectory("erased versions " + erase + " of '" + next.name() + "'; cannot sync " + dir);
      return written;
    } finally {
      lock.unlock();
    }
  }

  @Override
  public KeyMetadata setExportable(String name) {
    lock.lock();
    try {
      p12.checkOpen();
      KeyMetadata now = keys.get(name);
      if (now == null) {
        throw KeyNotFoundException.key(name);
      }
      if (now.exportable()) {
        return now;
      }
      KeyMetadata updated = now.asExportable();
      writePolicies(updated);
      return publish(updated);
    } finally {
      lock.unlock();
    }
  }

  /**
   * As {@link #createKey}: keys.json first (with the destroyed versions' metadata and every state),
   * then one p12 write adding every live version, the moment the key starts to exist. A key whose
   * versions are all destroyed exists from keys.json alone, as a deleted key's tombstone does.
   */
  @Override
  public KeyMetadata restoreKey(KeyMetadata key, List<NewKeyVersion> live) {
    String name = key.name();
    lock.lock();
    try {
      writeNewKeysPolicy(key, "restored");
      if (!live.isEmpty()) {
        p12.addVersions(name, live);
      }
      return publish(key);
    } finally {
      lock.unlock();
    }
  }

  /**
   * What creating and restoring a key do before its versions are written, under the lock: refuse a
   * name that is taken, then write the new key's policy durably, before the p12 rename that makes
   * the key exist (see the class comment), so no crash or power loss keeps a version but loses its
   * policy. {@code done} ("created", "restored") says what was not done if the sync fails.
   */
  private void writeNewKeysPolicy(KeyMetadata key, String done) {
    if (keys.containsKey(key.name())) {
      throw new KeyAlreadyExistsException(key.name());
    }
    p12.checkOpen();
    writePolicies(key);
    syncDirectory(
        "wrote the policy of key '"
            + key.name()
            + "' but could not sync "
            + dir
            + "; the key was not "
            + done);
  }

  @Override
  public Map<Integer, VersionUsage> readUsage(String name) {
    lock.lock();
    try {
      p12.checkOpen();
      return usage.read(name);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta) {
    lock.lock();
    try {
      p12.checkOpen();
      return usage.add(name, delta);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<AuditHead> readAuditHead(String trail) {
    lock.lock();
    try {
      p12.checkOpen();
      return Optional.ofNullable(auditHeads().get(trail));
    } finally {
      lock.unlock();
    }
  }

  /**
   * Check-and-set under the store's lock; the file is replaced atomically ({@link AtomicFiles}).
   */
  @Override
  public boolean writeAuditHead(AuditHead expected, AuditHead next) {
    lock.lock();
    try {
      p12.checkOpen();
      Map<String, AuditHead> heads = auditHeads();
      if (!Objects.equals(heads.get(next.trail()), expected)) {
        return false;
      }
      Map<String, AuditHead> written = new TreeMap<>(heads);
      written.put(next.trail(), next);
      Path file = dir.resolve(AuditHeadsFile.NAME);
      try {
        AtomicFiles.replace(file, out -> out.write(AuditHeadsFile.encode(written)));
        AtomicFiles.syncDirectory(dir);
      } catch (Exception e) {
        throw new KeyStoreUnavailableException("cannot write " + file + ": " + e, e);
      }
      auditHeads = written;
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The heads as {@code audit-heads.json} holds them, read on first use. Unlike usage counts, a
   * damaged file is an error, never a fresh start: starting afresh would forget where trails ended.
   */
  private Map<String, AuditHead> auditHeads() {
    if (auditHeads == null) {
      Path file = dir.resolve(AuditHeadsFile.NAME);
      try {
        auditHeads = AuditHeadsFile.read(file);
      } catch (IOException e) {
        throw new KeyStoreUnavailableException(
            "cannot read the audit trails' heads: " + e.getMessage(), e);
      }
    }
    return auditHeads;
  }

  @Override
  public byte[] auditKeyMaterial() {
    lock.lock();
    try {
      p12.checkOpen();
      return Pkcs12AuditKey.readOrCreate(p12);
    } finally {
      lock.unlock();
    }
  }

  /** Wipes the password and unlocks the directory; the store cannot be used afterwards. */
  @Override
  public void close() {
    lock.lock();
    try {
      p12.close();
    } finally {
      directoryLock.close();
      lock.unlock();
    }
  }

  /** Replaces keys.json with every key and {@code changed}; unchanged if this throws. */
  private void writePolicies(KeyMetadata changed) {
    Map<String, KeyMetadata> all = new TreeMap<>(keys);
    all.put(changed.name(), changed);
    PolicyFile.write(policyPath, all.values());
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

  @Override
  public String toString() {
    return "Pkcs12KeyStore[" + p12.path() + "]";
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.InvalidArgumentException;
import io.cipherd.server.crypto.EnvelopeHeader;
import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.NonceSource;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The service's view of its keys: a cache in front of the {@link KeyStore} that hands the crypto
 * path ready keys, enforces key policy, and performs key administration.
 *
 * <p>Once a key version has been used, encrypting and decrypting with it touches no store. Methods
 * that may reach the store say so; callers run them off the gRPC event loop.
 */
public final class KeyRing {
  private static final int ROTATE_ATTEMPTS = 5;

  private final KeyStore store;
  private final Clock clock;
  private final ConcurrentMap<String, CachedKey> cache = new ConcurrentHashMap<>();
  /**
   * Held by every write from its store call to {@link #remember}, so results are cached in the order
   * the store applied them: otherwise an older result (say, a rotation carrying the old policy)
   * could land last and overwrite a newer policy or version in the cache. Reads never take it.
   */
  private final Object writeLock = new Object();
  /** Key lookups answered from the cache and from the store; read by metrics. */
  private final LongAdder cacheHits = new LongAdder();
  private final LongAdder cacheMisses = new LongAdder();

  public KeyRing(KeyStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /**
   * Whether encrypting with {@code name}'s current version (or decrypting {@code version}, if not 0)
   * can be done from memory alone, without a store call.
   */
  public boolean isCached(String name, int version) {
    CachedKey key = cache.get(name);
    if (key == null) {
      return false;
    }
    int wanted = version == 0 ? key.metadata().currentVersion() : version;
    // A version newer than the cached metadata may have been added by another replica: that needs the store.
    return key.metadata().hasVersion(wanted) && key.hasLoaded(wanted);
  }

  /**
   * The version to encrypt with: the current one, or {@code requestedVersion} if not 0. May reach
   * the store on a cache miss.
   */
  public UsableKey forEncryption(String name, int requestedVersion) {
    if (requestedVersion < 0) {
      throw new InvalidArgumentException("key_version must not be negative");
    }
    CachedKey key = withVersion(cached(name), requestedVersion);
    KeyMetadata metadata = key.metadata();
    int version = requestedVersion == 0 ? metadata.currentVersion() : requestedVersion;
    KeyVersionInfo info = metadata.version(version);
    KeyPolicy policy = metadata.policy();
    if (requestedVersion != 0 && !policy.allowsEncryption(version)) {
      throw new KeyPolicyViolationException("version " + version + " of key '" + name
          + "' is below its min_encryption_version or min_decryption_version");
    }
    if (info.mode() == Mode.ECB && !policy.allowEcbEncryption()) {
      throw new KeyPolicyViolationException("key '" + name + "' version " + version
          + " is ecb, which may only decrypt unless the key's policy sets allow_ecb_encryption");
    }
    return key.usable(info);
  }

  /**
   * The version that decrypts a ciphertext with {@code header}, after the policy allows it. A header
   * whose mode differs from the version's mode fails as a decryption failure would.
   */
  public UsableKey forDecryption(EnvelopeHeader header) {
    CachedKey key = withVersion(cached(header.keyName()), header.version());
    KeyMetadata metadata = key.metadata();
    KeyVersionInfo info = metadata.version(header.version());
    if (!metadata.policy().allowsDecryption(header.version())) {
      throw new KeyPolicyViolationException("version " + header.version() + " of key '"
          + header.keyName() + "' is below its min_decryption_version "
          + metadata.policy().minDecryptionVersion());
    }
    if (info.mode() != header.mode()) {
      throw new io.cipherd.server.crypto.DecryptionFailedException();
    }
    return key.usable(info);
  }

  /** A key's metadata, from the cache or the store. */
  public KeyMetadata describe(String name) {
    return cached(name).metadata();
  }

  /** Up to {@code limit} keys named after {@code after} (empty for the first), in name order, read from the store. */
  public List<KeyMetadata> list(String after, int limit) {
    return store.listKeyNames().stream()
        .filter(name -> name.compareTo(after) > 0)
        .limit(limit)
        .map(store::readKey)
        .flatMap(Optional::stream)
        .toList();
  }

  /** Creates a key with a generated version 1. */
  public KeyMetadata create(String name, Mode mode, int keySizeBits, boolean allowUnauthenticated, KeyPolicy policy) {
    checkName(name);
    Mode chosen = mode == null ? Mode.GCM : mode;
    checkAuthenticated(chosen, allowUnauthenticated, "create a key");
    int bits = keySizeBits == 0 ? 256 : keySizeBits;
    NewKeyVersion first = generated(1, chosen, bits);
    try {
      KeyPolicy initial = policy == null ? KeyPolicy.DEFAULT : policy;
      checkPolicyFits(initial, 1);
      synchronized (writeLock) {
        return remember(store.createKey(name, first, initial));
      }
    } finally {
      wipe(first);
    }
  }

  /**
   * Adds a generated version and makes it current. A rotation that races another writer is retried
   * on the fresh state, so each call adds exactly one version.
   */
  public KeyMetadata rotate(String name, Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    checkName(name);
    synchronized (writeLock) {
      return rotateLocked(name, mode, keySizeBits, allowUnauthenticated);
    }
  }

  private KeyMetadata rotateLocked(String name, Mode mode, int keySizeBits, boolean allowUnauthenticated) {
    for (int attempt = 1; ; attempt++) {
      KeyMetadata now = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
      KeyVersionInfo current = now.current();
      Mode chosen = mode == null ? current.mode() : mode;
      if (chosen != current.mode()) {
        checkAuthenticated(chosen, allowUnauthenticated, "rotate a key into");
      }
      int bits = keySizeBits == 0 ? defaultSize(chosen, current.keySizeBits()) : keySizeBits;
      NewKeyVersion next = generated(now.currentVersion() + 1, chosen, bits);
      try {
        return remember(store.addVersion(name, now.currentVersion(), next));
      } catch (ConcurrentKeyUpdateException e) {
        if (attempt == ROTATE_ATTEMPTS) {
          throw e;
        }
        backOff(attempt);
      } finally {
        wipe(next);
      }
    }
  }

  /**
   * A short random pause before retrying a write that lost a race, so replicas rotating the same
   * key in lockstep (through a shared store such as Vault) do not keep colliding.
   */
  private static void backOff(int attempt) {
    try {
      Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1, 10L * attempt + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Adds caller-supplied bytes as a new version, creating the key if it does not exist. */
  public KeyMetadata importVersion(String name, Mode mode, byte[] material, boolean allowUnauthenticated) {
    checkName(name);
    Mode chosen = mode == null ? Mode.GCM : mode;
    checkAuthenticated(chosen, allowUnauthenticated, "import a key for");
    int bits = material.length * 8;
    if (!chosen.acceptsKeySize(bits)) {
      throw new InvalidArgumentException("key_material for " + chosen.headerName() + " must be "
          + chosen.keySizesBits() + " bits, got " + bits);
    }
    synchronized (writeLock) {
      return importLocked(name, chosen, material, bits);
    }
  }

  private KeyMetadata importLocked(String name, Mode chosen, byte[] material, int bits) {
    for (int attempt = 1; ; attempt++) {
      Optional<KeyMetadata> now = store.readKey(name);
      int version = now.map(KeyMetadata::currentVersion).orElse(0) + 1;
      NewKeyVersion next = new NewKeyVersion(
          new KeyVersionInfo(version, chosen, bits, clock.instant(), /* imported= */ true), material.clone());
      try {
        return remember(now.isEmpty()
            ? store.createKey(name, next, KeyPolicy.DEFAULT)
            : store.addVersion(name, version - 1, next));
      } catch (ConcurrentKeyUpdateException | KeyAlreadyExistsException e) {
        if (attempt == ROTATE_ATTEMPTS) {
          throw e;
        }
        backOff(attempt);
      } finally {
        wipe(next);
      }
    }
  }

  /** Replaces a key's policy after checking that its minimums name existing versions. */
  public KeyMetadata updatePolicy(String name, KeyPolicy policy) {
    checkName(name);
    synchronized (writeLock) {
      KeyMetadata now = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
      checkPolicyFits(policy, now.currentVersion());
      return remember(store.updatePolicy(name, policy));
    }
  }

  /**
   * Re-reads the metadata (current version, policy) of every cached key from the store, so rotations
   * and policy changes made by other replicas are used here; loaded versions stay loaded. Returns how
   * many keys could not be refreshed (store unavailable): those keep their cached metadata and work on.
   */
  public int refreshCached() {
    int failed = 0;
    for (String name : List.copyOf(cache.keySet())) {
      try {
        reload(name);
      } catch (KeyStoreUnavailableException | KeyStoreAccessDeniedException e) {
        failed++;
      }
    }
    return failed;
  }

  /**
   * Forgets every cached key, so the next use reads the store again, and overwrites the evicted
   * versions' key bytes.
   */
  public void invalidateAll() {
    for (String name : cache.keySet()) {
      CachedKey evicted = cache.remove(name);
      if (evicted != null) {
        evicted.destroy();
      }
    }
  }

  /** Key lookups answered from memory. */
  public long cacheHits() {
    return cacheHits.sum();
  }

  /** Key lookups that had to read the store's metadata. */
  public long cacheMisses() {
    return cacheMisses.sum();
  }

  /** Keys whose metadata is cached. */
  public int cacheSize() {
    return cache.size();
  }

  private CachedKey cached(String name) {
    CachedKey key = cache.get(name);
    if (key != null) {
      cacheHits.increment();
      return key;
    }
    cacheMisses.increment();
    checkName(name);
    KeyMetadata metadata = store.readKey(name).orElseThrow(() -> KeyNotFoundException.key(name));
    return cache.computeIfAbsent(name, n -> new CachedKey(metadata, store));
  }

  /** {@code key}, re-read from the store first if it does not know {@code version} (0: any is fine). */
  private CachedKey withVersion(CachedKey key, int version) {
    if (version <= key.metadata().currentVersion()) {
      return key;
    }
    reload(key.metadata().name());
    return cache.get(key.metadata().name());
  }

  /** Caches the store's metadata of {@code name}, unless a newer write has been cached meanwhile. */
  private void reload(String name) {
    synchronized (writeLock) {
      store.readKey(name).ifPresent(fresh -> cache.compute(name, (n, old) ->
          old == null ? new CachedKey(fresh, store)
              : fresh.currentVersion() < old.metadata().currentVersion() ? old : old.withMetadata(fresh)));
    }
  }

  private KeyMetadata remember(KeyMetadata metadata) {
    cache.compute(metadata.name(), (name, old) -> old == null
        ? new CachedKey(metadata, store)
        : old.withMetadata(metadata));
    return metadata;
  }

  private NewKeyVersion generated(int version, Mode mode, int bits) {
    if (!mode.acceptsKeySize(bits)) {
      throw new InvalidArgumentException(
          "key_size_bits for " + mode.headerName() + " must be one of " + mode.keySizesBits() + ", got " + bits);
    }
    return new NewKeyVersion(
        new KeyVersionInfo(version, mode, bits, clock.instant(), /* imported= */ false),
        NonceSource.bytes(bits / 8));
  }

  /** Stores copy what they keep, so the material handed to them is overwritten once they return. */
  private static void wipe(NewKeyVersion version) {
    java.util.Arrays.fill(version.material(), (byte) 0);
  }

  private static int defaultSize(Mode mode, int currentBits) {
    return mode.acceptsKeySize(currentBits) ? currentBits : 256;
  }

  private static void checkName(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidArgumentException("key_name is required");
    }
    if (!EnvelopeHeader.isValidKeyName(name)) {
      throw new InvalidArgumentException("key_name must match " + EnvelopeHeader.KEY_NAME_SYNTAX);
    }
  }

  private static void checkAuthenticated(Mode mode, boolean allowUnauthenticated, String action) {
    if (!mode.isAead() && !allowUnauthenticated) {
      throw new InvalidArgumentException(mode.headerName() + " does not authenticate its ciphertexts; set "
          + "allow_unauthenticated to " + action + " " + mode.headerName());
    }
  }

  private static void checkPolicyFits(KeyPolicy policy, int currentVersion) {
    if (policy.minDecryptionVersion() > currentVersion) {
      throw new KeyPolicyViolationException("min_decryption_version " + policy.minDecryptionVersion()
          + " is above the current version " + currentVersion);
    }
    if (policy.minEncryptionVersion() > currentVersion) {
      throw new KeyPolicyViolationException("min_encryption_version " + policy.minEncryptionVersion()
          + " is above the current version " + currentVersion);
    }
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crypto path's view of the keys: hands out ready key versions, held by {@link CachedKeys} in
 * front of the {@link KeyStore}, after their {@link KeyPolicy} allows the use. Once a version has
 * been used, encrypting and decrypting with it touches no store. Methods that may reach the store
 * say so; callers run them off the gRPC event loop.
 */
public final class KeyCache {
  private static final Logger LOG = LoggerFactory.getLogger(KeyCache.class);

  /**
   * How long a "not found" from the store (an unknown key, or no version above the cached current
   * one) is answered from memory: a caller looping on {@code <k/v999:gcm>} or on made-up names
   * costs at most one store read per key per second, and a version or key another replica has just
   * added becomes usable here at most this late. It bounds only how stale a "not found" can be;
   * found keys are refreshed as before.
   */
  public static final Duration NOT_FOUND_TTL = Duration.ofSeconds(1);

  /**
   * The known encryptions of each version, which cap encrypting (the policy's encryption limit).
   */
  private final UsageLedger usage;

  private final CachedKeys keys;

  /** A cache over {@code store} whose encryptions are capped by the counts in {@code usage}. */
  public KeyCache(KeyStore store, UsageLedger usage) {
    // Real time, not a test's or the builder's clock: a "not found" must expire however that moves.
    this(store, usage, Clock.systemUTC());
  }

  /**
   * As {@link #KeyCache(KeyStore, UsageLedger)}, timing out "not found" answers by {@code clock}.
   */
  KeyCache(KeyStore store, UsageLedger usage, Clock clock) {
    this.usage = usage;
    this.keys = new CachedKeys(store, clock, NOT_FOUND_TTL);
  }

  /**
   * Whether encrypting with {@code name}'s current version (or decrypting {@code version}, if not
   * 0) can be done from memory alone, without a store call.
   */
  public boolean isCached(String name, int version) {
    return keys.isCached(name, version);
  }

  /**
   * The version to encrypt with: the current one, or {@code requestedVersion} if not 0, once the
   * key's policy allows it, including its encryption limit as the usage counts know it. May reach
   * the store on a cache miss.
   */
  public UsableKey forEncryption(String name, int requestedVersion) {
    Chosen chosen = choose(name, requestedVersion, "key_version");
    LifecycleRules.checkServes(chosen.key().metadata(), chosen.info());
    chosen
        .policy()
        .checkEncryption(
            name,
            chosen.info(),
            /* chosenByCaller= */ requestedVersion != 0,
            usage.encryptions(name, chosen.info().version()));
    return loaded(chosen);
  }

  /**
   * The version that decrypts a ciphertext with {@code header}, once the key's policy allows it. A
   * header whose mode differs from the version's mode fails as a decryption failure would.
   */
  public UsableKey forDecryption(EnvelopeHeader header) {
    CachedKey key = withVersion(cached(header.keyName()), header.version());
    KeyMetadata metadata = key.metadata();
    KeyVersionInfo info = metadata.version(header.version());
    LifecycleRules.checkServes(metadata, info);
    metadata.policy().checkDecryption(header.keyName(), header.version());
    if (info.mode() != header.mode()) {
      throw new DecryptionFailedException();
    }
    return loaded(new Chosen(key, info));
  }

  /**
   * The legacy version that decrypts data made before cipherd: {@code requestedVersion}, or the
   * newest if 0, once the key's policy allows it to decrypt. A key that is not a legacy key is an
   * invalid argument: its ciphertexts have headers, and ReEncrypt takes them as they are. May reach
   * the store on a cache miss.
   */
  public UsableLegacyKey forLegacyDecryption(String name, int requestedVersion) {
    Chosen chosen = choose(name, requestedVersion, "legacy.key_version");
    KeyVersionInfo info = chosen.info();
    if (!info.isLegacy()) {
      throw new InvalidArgumentException(
          "key '"
              + name
              + "' is "
              + info.kind().description()
              + ", not a legacy key: rewrap its ciphertexts with ciphertext, not legacy");
    }
    LifecycleRules.checkServes(chosen.key().metadata(), info);
    chosen.policy().checkDecryption(name, info.version());
    UsableKey usable = loaded(chosen);
    return new UsableLegacyKey(usable.version(), usable.secret(), info.legacy());
  }

  /**
   * The index key version to compute blind indexes with: the current one, or {@code
   * requestedVersion} if not 0, once the key's policy allows it. May reach the store on a cache
   * miss.
   */
  public UsableKey forIndexing(String name, int requestedVersion) {
    Chosen chosen = choose(name, requestedVersion, "key_version");
    LifecycleRules.checkServes(chosen.key().metadata(), chosen.info());
    chosen.policy().checkIndexing(name, chosen.info());
    return loaded(chosen);
  }

  /** A version a caller chose (0: the current one) of a cached key, before its policy is asked. */
  private record Chosen(CachedKey key, KeyVersionInfo info) {
    KeyPolicy policy() {
      return key.metadata().policy();
    }
  }

  /**
   * The chosen version's bytes, read from the store on first use. The stores refuse a destroyed
   * version's read with its state (KEY_VERSION_DESTROYED), so a replica whose cached metadata is
   * older than a destruction elsewhere still answers with the right reason.
   */
  private static UsableKey loaded(Chosen chosen) {
    return chosen.key().usable(chosen.info());
  }

  /**
   * Version {@code requestedVersion} of {@code name}, or its current one if 0; {@code field} names
   * it in errors.
   */
  private Chosen choose(String name, int requestedVersion, String field) {
    if (requestedVersion < 0) {
      throw new InvalidArgumentException(field + " must not be negative");
    }
    CachedKey key = withVersion(cached(name), requestedVersion);
    KeyMetadata metadata = key.metadata();
    return new Chosen(
        key,
        metadata.version(requestedVersion == 0 ? metadata.currentVersion() : requestedVersion));
  }

  /**
   * The versions of {@code name} that its policy and their lifecycle still let be used, newest
   * first (from the cache or the store).
   */
  public List<Integer> usableVersions(String name) {
    KeyMetadata metadata = cached(name).metadata();
    // Versions scheduled for destruction or destroyed are left out; the current one never is, so
    // a key that serves no call still refuses when its current version is asked.
    return metadata.policy().usableVersions(metadata.currentVersion()).stream()
        .filter(
            version ->
                version == metadata.currentVersion()
                    || metadata.version(version).lifecycle().usable())
        .toList();
  }

  /** A key's metadata, from the cache or the store. */
  public KeyMetadata describe(String name) {
    return cached(name).metadata();
  }

  /**
   * Re-reads the metadata (current version, policy) of every cached key from the store, so
   * rotations and policy changes made by other replicas are used here; loaded versions stay loaded.
   * Returns how many keys could not be refreshed (store unavailable): those keep their cached
   * metadata and work on.
   */
  public int refreshCached() {
    return keys.refreshAll();
  }

  /**
   * Brings every key in {@code names} wholly into memory (its metadata and the bytes of every
   * version its policy still lets compute or decrypt), so that this replica serves them from memory
   * alone when the store goes away, even keys it has not used yet. Keys already in memory cost no
   * store call. A key the store no longer has, or whose stored version cannot be used, is skipped
   * (its use fails as it would have); an unavailable or refusing store stops the preload by
   * throwing, keeping what was loaded. Returns how many versions were read from the store.
   */
  public int preload(Collection<String> names) {
    int read = 0;
    for (String name : names) {
      try {
        read += keys.preload(name);
      } catch (KeyStoreUnavailableException | KeyStoreAccessDeniedException e) {
        throw e;
      } catch (RuntimeException e) {
        LOG.warn("key '{}' not preloaded: {}", name, e.getMessage());
      }
    }
    return read;
  }

  /**
   * Runs {@code listener} whenever metadata written here or refreshed from the store makes the
   * cache overwrite the bytes of versions no longer serving (scheduled for destruction, destroyed,
   * of a key being deleted): {@code Cipherd} clears its cipher pools then, whose idle ciphers may
   * still hold those versions' key schedules.
   */
  public void onVersionsWiped(Runnable listener) {
    keys.onWiped(listener);
  }

  /**
   * Forgets every cached key, so the next use reads the store again, and overwrites the evicted
   * versions' key bytes. Idle pooled ciphers still hold key schedules: call this through {@code
   * Cipherd.forgetKeys}, which clears the cipher pools with it.
   */
  public void invalidateAll() {
    keys.invalidateAll();
  }

  /** Key lookups answered from memory. */
  public long cacheHits() {
    return keys.hits();
  }

  /** Key lookups that had to read the store's metadata. */
  public long cacheMisses() {
    return keys.misses();
  }

  /** Keys whose metadata is cached. */
  public int cacheSize() {
    return keys.size();
  }

  /** A key's cached metadata, without reaching the store; empty if it is not cached. */
  Optional<KeyMetadata> peek(String name) {
    return keys.peek(name);
  }

  /** The names of the keys cached now. */
  public Set<String> cachedNames() {
    return keys.names();
  }

  /**
   * Runs {@code storeWrite} (which reaches the store) under the write lock and caches the metadata
   * it returns, so concurrent writes are cached in the order the store applied them.
   */
  KeyMetadata write(Supplier<KeyMetadata> storeWrite) {
    return keys.write(storeWrite);
  }

  /**
   * Caches the store's metadata of {@code name}, unless a newer write has been cached meanwhile:
   * after a write made elsewhere than through this cache (a rotation by policy, a due destruction),
   * so this replica serves the new state at once; versions no longer serving are wiped as for any
   * write.
   */
  public void reload(String name) {
    keys.reload(name);
  }

  /**
   * Caches {@code fresh}, just read from the store, unless a newer write has been cached meanwhile.
   */
  void offer(KeyMetadata fresh) {
    keys.offer(fresh);
  }

  /** The key {@code name}, read from the store on a miss. */
  private CachedKey cached(String name) {
    return keys.get(name);
  }

  /** {@code key}, re-read from the store first if it does not know {@code version} (0: any). */
  private CachedKey withVersion(CachedKey key, int version) {
    return keys.withVersion(key, version);
  }
}

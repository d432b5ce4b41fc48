package io.cipherd.server.keycache;

import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyKind;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNames;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.usage.EncryptionBlock;
import io.cipherd.server.usage.UsageLedger;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crypto path's view of the keys: hands out ready key versions, held by name in front of the
 * {@link KeyStore}, after their {@link KeyPolicy} allows the use. Keys are read through on a miss,
 * a "not found" is answered from memory for {@link #NOT_FOUND_TTL}, and writes are cached in the
 * order the store applied them. Once a version has been used, encrypting and decrypting with it
 * touches no store. Methods that may reach the store say so; callers run them off the gRPC event
 * loop.
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

  private final KeyStore store;
  private final ConcurrentMap<String, CachedKey> cache = new ConcurrentHashMap<>();

  /**
   * Held by every write from its store call to caching its result, so results are cached in the
   * order the store applied them: otherwise an older result (say, a rotation carrying the old
   * policy) could land last and overwrite a newer policy or version. Reads never take it.
   */
  private final Object writeLock = new Object();

  /** Key lookups answered from the cache and from the store; read by metrics. */
  private final LongAdder cacheHits = new LongAdder();

  private final LongAdder cacheMisses = new LongAdder();

  /**
   * Told when new metadata made a cached key wipe versions' bytes; see {@link #onVersionsWiped}.
   */
  private volatile Runnable onWiped = () -> {};

  /** Names the store did not know, within the not-found time. */
  private final RecentMisses unknownKeys;

  /** Cached keys whose reload found no version above the cached current one, within that time. */
  private final RecentMisses noNewerVersion;

  private volatile ToIntFunction<String> rotation = name -> 0;

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
    this.store = store;
    this.unknownKeys = new RecentMisses(clock, NOT_FOUND_TTL);
    this.noNewerVersion = new RecentMisses(clock, NOT_FOUND_TTL);
  }

  /**
   * Whether encrypting with {@code name}'s current version (or decrypting {@code version}, if not
   * 0) can be done from memory alone, without a store call.
   */
  public boolean isCached(String name, int version) {
    CachedKey key = cache.get(name);
    if (key == null) {
      return unknownKeys.isRecent(name);
    }
    int wanted = version == 0 ? key.metadata().currentVersion() : version;
    if (wanted > key.metadata().currentVersion()) {
      // Another replica may have added it, which needs the store, unless it was just asked.
      return noNewerVersion.isRecent(name);
    }
    return key.metadata().hasVersion(wanted) && key.hasLoaded(wanted);
  }

  /**
   * Whether encrypting with {@code name}'s {@code version} (0: current) can be done from memory
   * alone: the version is cached and one more encryption can be reserved without a store call.
   */
  public boolean canEncryptFromMemory(String name, int version) {
    if (!isCached(name, version)) {
      return false;
    }
    Optional<KeyMetadata> metadata = peek(name);
    if (metadata.isEmpty()) {
      return false;
    }
    KeyVersionInfo info =
        metadata.get().version(version == 0 ? metadata.get().currentVersion() : version);
    if (info.isLegacy() || info.kind() != KeyKind.ENCRYPTION) {
      // Never encrypts (an index key computes indexes; the call refuses at once): nothing to
      // reserve.
      return true;
    }
    return usage.canReserveFromMemory(
        name, info.version(), metadata.get().policy().encryptionLimit(info.mode()));
  }

  /**
   * The version to encrypt with: the current one, or {@code requestedVersion} if not 0, once the
   * key's policy allows it, with one encryption reserved against the version's encryption limit
   * ({@link UsageLedger#reserveEncryption}): the caller encrypts once with it, or gives the
   * reservation back ({@link #unusedEncryption}). Once the current version has made its limit, the
   * key rotates by its policy and the new version is used; a version the caller chose is refused.
   * May reach the store on a cache miss, a key's first reservation, a full block of reservations
   * and a rotation.
   */
  public UsableKey forEncryption(String name, int requestedVersion) {
    return reserved(
        name,
        requestedVersion,
        chosen ->
            chosen
                .policy()
                .checkEncryption(
                    name,
                    chosen.info(),
                    /* chosenByCaller= */ requestedVersion != 0,
                    /* encryptions= */ 0));
  }

  /**
   * The format-preserving version to encrypt values with: the current one, with one encryption
   * reserved as {@link #forEncryption} does (a format-preserving version has no limit of its own,
   * but max_encryptions_per_version caps it, and its encryptions count). A key that is not
   * format-preserving is refused by its policy. May reach the store as {@link #forEncryption} does.
   */
  public UsableFpeKey forFormattedEncryption(String name) {
    UsableKey key =
        reserved(
            name,
            0,
            chosen ->
                chosen
                    .policy()
                    .checkFormattedEncryption(
                        name, chosen.info(), /* chosenByCaller= */ false, /* encryptions= */ 0));
    return new UsableFpeKey(key, describe(name).version(key.version().version()).fpe());
  }

  /**
   * The format-preserving version {@code version} (at least 1) to decrypt values with, once the
   * key's lifecycle and policy allow it. May reach the store on a cache miss.
   */
  public UsableFpeKey forFormattedDecryption(String name, int version) {
    if (version < 1) {
      throw new InvalidArgumentException("key_version must be at least 1, not " + version);
    }
    Chosen chosen = choose(name, version, "key_version");
    LifecycleRules.checkServes(chosen.key().metadata(), chosen.info());
    chosen.policy().checkFormattedDecryption(name, chosen.info());
    return new UsableFpeKey(loaded(chosen), chosen.info().fpe());
  }

  /** What a reservation checks of the chosen version before reserving, by throwing. */
  private interface EncryptionCheck {
    void check(Chosen chosen);
  }

  private UsableKey reserved(String name, int requestedVersion, EncryptionCheck check) {
    int refusedVersion = 0;
    for (; ; ) {
      Chosen chosen = choose(name, requestedVersion, "key_version");
      KeyVersionInfo info = chosen.info();
      LifecycleRules.checkServes(chosen.key().metadata(), info);
      check.check(chosen);
      if (usage.reserveEncryption(
          name, info.version(), chosen.policy().encryptionLimit(info.mode()))) {
        try {
          return loaded(chosen);
        } catch (RuntimeException e) {
          usage.releaseEncryption(name, info.version());
          throw e;
        }
      }
      // Past the cap: a version the caller chose, or a current version no rotation replaced since
      // the last attempt, refuses; else the key rotates (here, or another call or replica did) and
      // the encryption tries the new current version.
      if (requestedVersion != 0 || info.version() == refusedVersion) {
        throw chosen.policy().encryptionLimitReached(name, info);
      }
      refusedVersion = info.version();
      rotation.applyAsInt(name);
    }
  }

  /**
   * Gives back the reservation of {@link #forEncryption} for {@code key}, whose encryption failed
   * before a ciphertext was made.
   */
  public void unusedEncryption(UsableKey key) {
    usage.releaseEncryption(key.version().keyName(), key.version().version());
  }

  /**
   * The encryption limit of {@code key}, as {@link #forEncryption} returned it, for {@link
   * #reserveAnother}.
   */
  public long encryptionLimit(UsableKey key) {
    KeyVersionRef version = key.version();
    return peek(version.keyName())
        .map(m -> m.policy().encryptionLimit(key.header().mode()))
        .orElse(key.header().mode().encryptionLimit());
  }

  /**
   * A run of encryptions with {@code key}, which {@link #forEncryption} returned to this caller
   * before, reserved in blocks against {@code limit} ({@link #encryptionLimit}) while the version
   * is far from it and counted at once ({@link EncryptionBlock}); the caller settles it.
   */
  public EncryptionBlock encryptionBlock(UsableKey key, long limit) {
    KeyVersionRef version = key.version();
    return usage.encryptionBlock(version.keyName(), version.version(), limit);
  }

  /**
   * Reserves one more encryption with {@code key}, which {@link #forEncryption} returned to this
   * caller before, against {@code limit} ({@link #encryptionLimit}): a run of encryptions with one
   * version pays the policy's checks once, but reserves each encryption. False, reserving nothing,
   * once the version has made its limit: ask {@link #forEncryption} again.
   */
  public boolean reserveAnother(UsableKey key, long limit) {
    KeyVersionRef version = key.version();
    return usage.reserveEncryption(version.keyName(), version.version(), limit);
  }

  /**
   * Rotates a key whose current version reached its encryption limit when an encryption asks for it
   * ({@code KeyAdmin::rotateIfDue}); without one, the current version refuses as a chosen one.
   */
  public void rotateWhenCapped(ToIntFunction<String> rotation) {
    this.rotation = rotation;
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
        read += preloadKey(name);
        // Its usage totals too: the key's first encryption reserves against them from memory.
        usage.load(name);
      } catch (KeyStoreUnavailableException | KeyStoreAccessDeniedException e) {
        throw e;
      } catch (RuntimeException e) {
        LOG.warn("key '{}' not preloaded: {}", name, e.getMessage());
      }
    }
    return read;
  }

  /**
   * Brings {@code name} wholly into memory: its metadata, if not cached, and the bytes of every
   * version its policy and lifecycle still let compute or decrypt that are not loaded yet. Returns
   * how many versions were read; 0 for a key the store no longer has. Counts no cache request. May
   * reach the store.
   */
  private int preloadKey(String name) {
    CachedKey key = cache.get(name);
    if (key == null) {
      Optional<KeyMetadata> read = store.readKey(name);
      if (read.isEmpty()) {
        return 0;
      }
      offer(read.get());
      key = cache.get(name);
      if (key == null) {
        return 0; // forgotten meanwhile (invalidateAll): the next use reads it again
      }
    }
    KeyMetadata metadata = key.metadata();
    int read = 0;
    for (int version : metadata.policy().usableVersions(metadata.currentVersion())) {
      // A version scheduled for destruction or destroyed (or any of a key being deleted) serves
      // no call: its bytes are never read, and a destroyed version's are gone.
      if (!key.hasLoaded(version) && CachedKey.mayHoldBytes(metadata, version)) {
        key.usable(metadata.version(version));
        read++;
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
    this.onWiped = listener;
  }

  /**
   * Forgets every cached key, so the next use reads the store again, and overwrites the evicted
   * versions' key bytes. Idle pooled ciphers still hold key schedules: call this through {@code
   * Cipherd.forgetKeys}, which clears the cipher pools with it.
   */
  public void invalidateAll() {
    unknownKeys.clear();
    noNewerVersion.clear();
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

  /** A key's cached metadata, without reaching the store; empty if it is not cached. */
  public Optional<KeyMetadata> peek(String name) {
    CachedKey key = cache.get(name);
    return key == null ? Optional.empty() : Optional.of(key.metadata());
  }

  /** The names of the keys cached now. */
  public Set<String> cachedNames() {
    return Set.copyOf(cache.keySet());
  }

  /**
   * Runs {@code storeWrite} (which reaches the store) under the write lock and caches the metadata
   * it returns, so concurrent writes are cached in the order the store applied them.
   */
  public KeyMetadata write(Supplier<KeyMetadata> storeWrite) {
    synchronized (writeLock) {
      KeyMetadata written = storeWrite.get();
      unknownKeys.forget(written.name());
      noNewerVersion.forget(written.name());
      cache.compute(
          written.name(),
          (name, old) ->
              old == null ? new CachedKey(written, store) : old.withMetadata(written, onWiped));
      return written;
    }
  }

  /**
   * Caches the store's metadata of {@code name}, unless a newer write has been cached meanwhile:
   * after a write made elsewhere than through this cache (a rotation by policy, a due destruction),
   * so this replica serves the new state at once; versions no longer serving are wiped as for any
   * write.
   */
  public void reload(String name) {
    store.readKey(name).ifPresent(this::offer);
  }

  /**
   * Caches {@code fresh}, just read from the store, unless a newer write has been cached meanwhile.
   */
  public void offer(KeyMetadata fresh) {
    unknownKeys.forget(fresh.name());
    noNewerVersion.forget(fresh.name());
    synchronized (writeLock) {
      cache.compute(
          fresh.name(),
          (n, old) ->
              old == null
                  ? new CachedKey(fresh, store)
                  : fresh.currentVersion() < old.metadata().currentVersion()
                      ? old
                      : old.withMetadata(fresh, onWiped));
    }
  }

  /** The key {@code name}, read from the store on a miss. */
  private CachedKey cached(String name) {
    CachedKey key = cache.get(name);
    if (key != null) {
      cacheHits.increment();
      return key;
    }
    cacheMisses.increment();
    KeyNames.check(name);
    if (unknownKeys.isRecent(name)) {
      throw KeyNotFoundException.key(name);
    }
    Optional<KeyMetadata> read = store.readKey(name);
    if (read.isEmpty()) {
      unknownKeys.remember(name);
      throw KeyNotFoundException.key(name);
    }
    KeyMetadata metadata = read.get();
    return cache.computeIfAbsent(name, n -> new CachedKey(metadata, store));
  }

  /**
   * {@code key}, re-read from the store first if it does not know {@code version} (0: any is fine),
   * unless a re-read within the not-found time found no newer version.
   */
  private CachedKey withVersion(CachedKey key, int version) {
    String name = key.metadata().name();
    if (version <= key.metadata().currentVersion() || noNewerVersion.isRecent(name)) {
      return key;
    }
    reload(name);
    CachedKey reloaded = cache.getOrDefault(name, key);
    if (version > reloaded.metadata().currentVersion()) {
      noNewerVersion.remember(name);
    }
    return reloaded;
  }
}

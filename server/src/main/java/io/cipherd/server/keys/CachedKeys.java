package io.cipherd.server.keys;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The keys {@link KeyCache} holds, by name, in front of the {@link KeyStore}: read through on a
 * miss, a "not found" answered from memory for {@code notFoundTtl}, and writes cached in the order
 * the store applied them. Asks no policy; methods that may reach the store say so.
 */
final class CachedKeys {
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

  /** Told when new metadata made a cached key wipe versions' bytes; see {@link #onWiped}. */
  private volatile Runnable onWiped = () -> {};

  /** Names the store did not know, within the not-found time. */
  private final RecentMisses unknownKeys;

  /** Cached keys whose reload found no version above the cached current one, within that time. */
  private final RecentMisses noNewerVersion;

  /** Keys of {@code store}, its "not found" answers remembered for {@code notFoundTtl}. */
  CachedKeys(KeyStore store, Clock clock, Duration notFoundTtl) {
    this.store = store;
    this.unknownKeys = new RecentMisses(clock, notFoundTtl);
    this.noNewerVersion = new RecentMisses(clock, notFoundTtl);
  }

  /**
   * Whether {@code name}'s current version (or {@code version}, if not 0) can be had from memory
   * alone, without a store call.
   */
  boolean isCached(String name, int version) {
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

  /** The cached key {@code name}, read from the store on a miss. */
  CachedKey get(String name) {
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
  CachedKey withVersion(CachedKey key, int version) {
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

  /**
   * Brings {@code name} wholly into memory: its metadata, if not cached, and the bytes of every
   * version its policy and lifecycle still let compute or decrypt that are not loaded yet. Returns
   * how many versions were read; 0 for a key the store no longer has. Counts no cache request. May
   * reach the store.
   */
  int preload(String name) {
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
   * Re-reads the metadata of every cached key from the store; returns how many could not be
   * refreshed (store unavailable): those keep their cached metadata.
   */
  int refreshAll() {
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
   * Runs {@code listener} whenever new metadata makes a cached key overwrite the bytes of versions
   * that no longer serve.
   */
  void onWiped(Runnable listener) {
    this.onWiped = listener;
  }

  /** Forgets every key, and every "not found", and overwrites the evicted versions' key bytes. */
  void invalidateAll() {
    unknownKeys.clear();
    noNewerVersion.clear();
    for (String name : cache.keySet()) {
      CachedKey evicted = cache.remove(name);
      if (evicted != null) {
        evicted.destroy();
      }
    }
  }

  long hits() {
    return cacheHits.sum();
  }

  long misses() {
    return cacheMisses.sum();
  }

  int size() {
    return cache.size();
  }

  /** A key's cached metadata, without reaching the store; empty if it is not cached. */
  Optional<KeyMetadata> peek(String name) {
    CachedKey key = cache.get(name);
    return key == null ? Optional.empty() : Optional.of(key.metadata());
  }

  Set<String> names() {
    return Set.copyOf(cache.keySet());
  }

  /**
   * Runs {@code storeWrite} (which reaches the store) under the write lock and caches the metadata
   * it returns, so concurrent writes are cached in the order the store applied them.
   */
  KeyMetadata write(Supplier<KeyMetadata> storeWrite) {
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
   * Caches the store's metadata of {@code name}, unless a newer write has been cached meanwhile.
   */
  void reload(String name) {
    store.readKey(name).ifPresent(this::offer);
  }

  /**
   * Caches {@code fresh}, just read from the store, unless a newer write has been cached meanwhile.
   */
  void offer(KeyMetadata fresh) {
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
}

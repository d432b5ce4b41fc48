package io.cipherd.server.subjectkeys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeptCipher;
import io.cipherd.server.crypto.KeptCiphers;
import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStore;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.cache.CaffeineCacheMetrics;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The subject keys of the crypto path: looked up by subject (to encrypt) or by reference (to
 * decrypt) in a bounded cache, then in the {@link SubjectStore} (one round-trip for all of a
 * batch's subjects), created when new (one round-trip for all of a batch's new subjects, within the
 * caller's creation rate), unwrapped through the engine, and erased. Nothing is loaded at start-up.
 *
 * <p>Cached rows and keys live {@link SubjectKeysConfig#cacheTtl} at most, counted from when the
 * store said the subject was live: an erasure on another replica is honoured here within that time
 * (plus the rest of a batch under way then, whose items are judged at its start: {@link
 * SubjectClock}); an erasure through this one at once.
 *
 * <p>A cached subject key is also found by its subject id as the caller sent it, so that encrypting
 * for a warm subject skips the HMAC that names it in the store. Those ids stay in this replica's
 * memory as long as their keys do (at most {@link SubjectKeysConfig#cacheSize} of them, for the
 * TTL), never in the store, a log, an error or a metric; the keys they find are in the same memory.
 */
public final class SubjectKeys {
  /** A subject under one named key: how the encryption side of the cache finds its row. */
  private record Named(String keyName, SubjectHash hash) {}

  /** A subject id as a caller sent it, under one named key: how a warm subject's key is found. */
  private record NamedId(String keyName, String subjectId) {
    @Override
    public String toString() {
      return "NamedId[" + keyName + ", id hidden]";
    }
  }

  /**
   * At most this many ciphers are kept initialised with a cached subject key (about 2 KB each, so 8
   * MB in all; a key used by several threads at once keeps one per thread's stripe): the subjects
   * in use now skip the AES key schedule (see {@link KeptCipher}), the rest use the pools.
   */
  static final int KEPT_CIPHERS = 4096;

  /**
   * One warm lookup in this many goes through the cache as a read (its eviction policy told of the
   * access, a hit counted for this many); the others read quietly. A cache read records the access
   * in a buffer and counts the hit, two locked instructions each, on every subject-bound item where
   * a plain item has none; sampled, the policy still sees which subjects are used most, in
   * proportion, and the hit count is right on average.
   */
  static final int READ_SAMPLE = 16;

  /**
   * How long past now a warm subject's key must stay servable for {@link #warmForEncryption} to
   * count it: far longer than the moment between that check and the call's start on the same
   * thread, after which the call judges every item at its start ({@link SubjectClock#batch}), so a
   * call that starts warm does not turn cold midway. A GC pause longer than this in that moment
   * costs the call one store read on the transport thread, as a key dropped for size does. Kept
   * short because a key within it sends its calls to the blocking pool until it expires and one of
   * them reads it again: with a second of the default TTL's five, a fifth of the calls for subjects
   * in steady use took the pool (SubjectBoundBatchBenchmark).
   */
  static final Duration WARM_MARGIN = Duration.ofMillis(100);

  private static final long WARM_MARGIN_NANOS = WARM_MARGIN.toNanos();

  private final SubjectStore store;
  private final Supplier<SubjectHasher> hasher;
  private final SubjectCreationLimiter limiter;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Cache<Named, SubjectRecord> byName;
  private final Cache<SubjectRef, SubjectRecord> byRef;
  private final Cache<SubjectRef, SubjectKey> keys;
  private final Cache<NamedId, SubjectKey> byId;
  private final Policy<SubjectRef, SubjectKey> keysQuietly;
  private final Policy<NamedId, SubjectKey> byIdQuietly;

  /** The key cache's hits and misses, which sampled reads ({@link #READ_SAMPLE}) add to. */
  private final StatsCounter keyStats = new ConcurrentStatsCounter();

  private final Duration ttl;
  private final AtomicLong created = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong erased = new AtomicLong();
  private final KeptCiphers keptCiphers;

  /**
   * One instance of each key name its subject keys hold, however many rows and requests spelled it:
   * every subject-bound item compares its header's key name with its subject key's, and one shared
   * string stays in the core's cache where 256 subjects' own copies would each be a miss. Only
   * names of rows in the store come here, so of keys that exist.
   */
  private final ConcurrentMap<String, String> keyNames = new ConcurrentHashMap<>();

  /**
   * Keys in {@code store}, subjects named by {@code hasher} (asked on first use: it reads the key
   * store's audit key).
   */
  public SubjectKeys(
      SubjectStore store, Supplier<SubjectHasher> hasher, SubjectKeysConfig config, Clock clock) {
    // A batch that waits for the store judges its later items when the store answered.
    this.store = new BatchClockSubjectStore(store);
    this.hasher = memoized(hasher);
    this.limiter = new SubjectCreationLimiter(config.creationRate());
    this.clock = clock;
    this.ttl = config.cacheTtl();
    this.byName = cache(config).build();
    this.byRef = cache(config).build();
    // A key the cache drops for size or age is not overwritten: a call may still hold it (a batch
    // holds its subjects' keys for all its items), and overwriting it there sealed that call's
    // later items under zeroed bytes and failed its decryptions. Only an erasure overwrites a key's
    // bytes, at once (erase), and a key so overwritten refuses to serve; the others go with the
    // garbage.
    // A key also stops serving at its usableUntilNanos (servable): checked on each hit rather than
    // by a variable expiry, which made every read of the cache a write of its access time.
    this.keys =
        bounded(config)
            .recordStats(() -> keyStats)
            .<SubjectRef, SubjectKey>removalListener(
                (ref, key, cause) -> {
                  if (key != null) {
                    key.leftCache();
                  }
                })
            .build();
    // Holds only keys the key cache holds: a key that leaves it (erased, dropped for size or age,
    // its key's versions changed) is not served from here either (SubjectKey.inCache).
    this.byId = bounded(config).build();
    this.keysQuietly = keys.policy();
    this.byIdQuietly = byId.policy();
    this.keptCiphers = new KeptCiphers(Math.min(config.cacheSize(), KEPT_CIPHERS));
  }

  /** A cache of the configured size and TTL, on the subject caches' clock. */
  private static Caffeine<Object, Object> bounded(SubjectKeysConfig config) {
    return Caffeine.newBuilder()
        .maximumSize(config.cacheSize())
        .expireAfterWrite(config.cacheTtl())
        .ticker(SubjectClock::nanoTime);
  }

  /** As {@link #bounded}, counting hits and misses for the metrics. */
  private static Caffeine<Object, Object> cache(SubjectKeysConfig config) {
    return bounded(config).recordStats();
  }

  /**
   * When ({@link SubjectClock#nanoTime}) {@code cache}'s entry for {@code key} was read from the
   * store; the oldest it can be when the cache no longer knows.
   */
  private <K> long readAt(Cache<K, SubjectRecord> cache, K key) {
    long ttlNanos = ttl.toNanos();
    long age =
        cache
            .policy()
            .expireAfterWrite()
            .map(expiry -> expiry.ageOf(key, TimeUnit.NANOSECONDS).orElse(ttlNanos))
            .orElse(ttlNanos);
    return SubjectClock.nanoTime() - Math.min(age, ttlNanos);
  }

  private static <T> Supplier<T> memoized(Supplier<T> supplier) {
    return new Supplier<>() {
      private volatile T value;

      @Override
      public T get() {
        T v = value;
        if (v == null) {
          synchronized (this) {
            v = value;
            if (v == null) {
              v = supplier.get();
              value = v;
            }
          }
        }
        return v;
      }
    };
  }

  /**
   * Reads the key that names subjects now instead of at the first subject-bound call, so that a
   * replica that has made none yet can still make one while its key store is unreachable. Whether
   * it was read; when it was not (the store is down at start), the first use reads it.
   */
  public boolean readHashKey() {
    try {
      hasher.get();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** The store's name for {@code subject}, given in request field {@code field}. */
  public SubjectHash hash(String field, String subject) {
    return hasher.get().hash(field, subject);
  }

  /** The store's name for a subject id encoded by {@link SubjectHasher#utf8}. */
  public SubjectHash hash(byte[] utf8Subject) {
    return hasher.get().hash(utf8Subject);
  }

  /** The store, for the sweep, the census and the lifecycle's checks. */
  public SubjectStore store() {
    return store;
  }

  /**
   * The key of each subject id of {@code subjectIds} under {@code keyName}, to encrypt with, as
   * {@link #forEncryption} finds it by the id's hash: an array in the ids' order, each entry the
   * id's {@link SubjectKey} or its error, an id that is not valid ({@link SubjectHasher#utf8})
   * included. A warm subject's key is found by its id, without hashing it, and goes straight to its
   * entry: a batch's item then finds its key by its place, with no map of ids in between (two map
   * operations and a string comparison per item, about a third of what a warm subject-bound item
   * cost beyond a plain one in SubjectBoundBatchBenchmark). The others are read, or created, in one
   * store round trip; before it, {@code beforeStoreRead} runs (null: nothing), which may refuse the
   * round trip by throwing (a stream's run whose store round trip just failed).
   */
  public Object[] forEncryptionByIds(
      String keyName,
      List<String> subjectIds,
      boolean renewErased,
      String caller,
      SubjectKeyWrapping wrapping,
      Runnable beforeStoreRead) {
    Object[] resolved = new Object[subjectIds.size()];
    Map<String, SubjectHash> cold = null;
    for (int i = 0; i < resolved.length; i++) {
      String id = subjectIds.get(i);
      NamedId named = new NamedId(keyName, id);
      SubjectKey warm = byIdQuietly.getIfPresentQuietly(named);
      if (warm != null && sampled()) {
        byId.getIfPresent(named);
      }
      if (warm != null) {
        if (warm.cachedAt(SubjectClock.nanoTime())) {
          resolved[i] = warm;
          continue;
        }
        byId.invalidate(named);
      }
      if (cold != null && cold.containsKey(id)) {
        continue;
      }
      try {
        SubjectHash hash = hash("subject", id);
        if (cold == null) {
          cold = LinkedHashMap.newLinkedHashMap(resolved.length - i);
        }
        cold.put(id, hash);
      } catch (RuntimeException e) {
        resolved[i] = e;
      }
    }
    if (cold != null) {
      Map<SubjectHash, Object> byHash =
          forEncryption(keyName, cold.values(), renewErased, caller, wrapping, beforeStoreRead);
      cold.forEach(
          (id, hash) -> {
            if (byHash.get(hash) instanceof SubjectKey key && key.inCache()) {
              byId.put(new NamedId(keyName, id), key);
            }
          });
      // The items left are those of the ids just read, repeats included.
      for (int i = 0; i < resolved.length; i++) {
        if (resolved[i] == null) {
          resolved[i] = byHash.get(cold.get(subjectIds.get(i)));
        }
      }
    }
    return resolved;
  }

  /**
   * Whether every subject of {@code subjectIds} has its key under {@code keyName} cached and
   * servable for {@link #WARM_MARGIN} more, so that encrypting for them reads and writes no store:
   * such a call may run on the transport thread, as a plain one whose key is cached does. Only
   * asks, quietly: no hit is counted and no id is hashed. A key the cache drops between this answer
   * and the call (for size, as new subjects come in) makes the call read the store once.
   */
  public boolean warmForEncryption(String keyName, List<String> subjectIds) {
    return SubjectClock.batch(
        () -> {
          long until = SubjectClock.nanoTime() + WARM_MARGIN_NANOS;
          for (String id : subjectIds) {
            SubjectKey warm = byIdQuietly.getIfPresentQuietly(new NamedId(keyName, id));
            if (warm == null || !warm.cachedAt(until)) {
              return false;
            }
          }
          return true;
        });
  }

  /**
   * Whether the subject key {@code ref} names under {@code keyName} is cached and servable for
   * {@link #WARM_MARGIN} more, so that decrypting with it reads no store (as {@link
   * #warmForEncryption}); quietly.
   */
  public boolean warmForDecryption(String keyName, SubjectRef ref) {
    return SubjectClock.batch(
        () -> {
          SubjectKey warm = keysQuietly.getIfPresentQuietly(ref);
          return warm != null
              && warm.keyName().equals(keyName)
              && warm.cachedAt(SubjectClock.nanoTime() + WARM_MARGIN_NANOS);
        });
  }

  /**
   * The key of each subject of {@code subjects} under {@code keyName}, to encrypt with: a map from
   * each subject to its {@link SubjectKey}, or to the error of that subject alone ({@link
   * SubjectErasedException}, {@link SubjectQuotaExceededException}, or what wrapping failed with).
   * One store lookup for the subjects not cached, one creation for the new ones.
   */
  public Map<SubjectHash, Object> forEncryption(
      String keyName,
      Collection<SubjectHash> subjects,
      boolean renewErased,
      String caller,
      SubjectKeyWrapping wrapping) {
    return forEncryption(keyName, subjects, renewErased, caller, wrapping, null);
  }

  private Map<SubjectHash, Object> forEncryption(
      String keyName,
      Collection<SubjectHash> subjects,
      boolean renewErased,
      String caller,
      SubjectKeyWrapping wrapping,
      Runnable beforeStoreRead) {
    Set<SubjectHash> distinct = new LinkedHashSet<>(subjects);
    Map<SubjectHash, SubjectRecord> rows = HashMap.newHashMap(distinct.size());
    List<SubjectHash> missing = new ArrayList<>();
    for (SubjectHash subject : distinct) {
      SubjectRecord row = byName.getIfPresent(new Named(keyName, subject));
      if (row != null) {
        rows.put(subject, row);
      } else {
        missing.add(subject);
      }
    }
    if (!missing.isEmpty()) {
      if (beforeStoreRead != null) {
        beforeStoreRead.run();
      }
      Map<SubjectHash, SubjectRecord> found = store.find(keyName, missing);
      found.forEach((subject, row) -> remember(row));
      rows.putAll(found);
    }
    Map<SubjectHash, Object> result = HashMap.newHashMap(distinct.size());
    List<SubjectRecord> create = new ArrayList<>();
    Map<SubjectRef, byte[]> drawn = new HashMap<>();
    try {
      for (SubjectHash subject : distinct) {
        SubjectRecord row = rows.get(subject);
        if (row != null && !row.isErased()) {
          try {
            result.put(
                subject, keyOf(row, wrapping, () -> readAt(byName, named(keyName, subject))));
          } catch (RuntimeException e) {
            result.put(subject, e);
          }
        } else if (row != null && !renewErased) {
          result.put(subject, new SubjectErasedException(keyName, row.erased(), true));
        } else if (!limiter.tryCreate(caller)) {
          refused.incrementAndGet();
          result.put(subject, new SubjectQuotaExceededException(keyName, limiter.rate()));
        } else {
          try {
            SubjectRef ref = SubjectRef.random(random);
            byte[] key = new byte[SubjectKey.LENGTH];
            random.nextBytes(key);
            SubjectKeyWrapping.Wrapped wrapped = wrapping.wrap(keyName, ref, key);
            drawn.put(ref, key);
            create.add(
                SubjectRecord.live(
                    ref,
                    keyName,
                    subject,
                    wrapped.text(),
                    wrapped.version(),
                    clock.instant().truncatedTo(ChronoUnit.MILLIS)));
          } catch (RuntimeException e) {
            result.put(subject, e);
          }
        }
      }
      if (!create.isEmpty()) {
        if (beforeStoreRead != null) {
          beforeStoreRead.run();
        }
        Map<SubjectHash, SubjectRecord> live = store.createIfAbsent(create);
        for (SubjectRecord mine : create) {
          SubjectRecord winner = live.get(mine.subjectHash());
          remember(winner);
          if (winner.ref().equals(mine.ref())) {
            created.incrementAndGet();
            SubjectKey key =
                new SubjectKey(
                    winner.ref(),
                    sharedName(winner.keyName()),
                    winner.subjectHash(),
                    winner.wrapVersion(),
                    drawn.remove(mine.ref()),
                    keptCiphers.newSlot(),
                    System.nanoTime() + ttl.toNanos());
            keys.put(winner.ref(), key);
            result.put(mine.subjectHash(), key);
          } else {
            // Another replica created it first: its key is the subject's.
            try {
              result.put(
                  mine.subjectHash(),
                  keyOf(winner, wrapping, () -> readAt(byName, named(keyName, winner))));
            } catch (RuntimeException e) {
              result.put(mine.subjectHash(), e);
            }
          }
        }
      }
    } finally {
      drawn.values().forEach(key -> Arrays.fill(key, (byte) 0));
    }
    return result;
  }

  /**
   * The key of the subject-bound ciphertext that names {@code ref} under {@code keyName}: {@link
   * SubjectErasedException} if its subject was erased, {@link DecryptionFailedException} if no
   * subject key has that reference under that name (a forged or altered ciphertext).
   */
  public SubjectKey forDecryption(String keyName, SubjectRef ref, SubjectKeyWrapping wrapping) {
    return forDecryption(keyName, ref, wrapping, null);
  }

  /**
   * As {@link #forDecryption(String, SubjectRef, SubjectKeyWrapping)}; when neither the key nor the
   * row of {@code ref} is cached, runs {@code beforeStoreRead} with {@code ref} first (null:
   * nothing), which may read this ref's row along with others' ({@link #prefetch}), so that a batch
   * reads all the rows it lacks in one round-trip, and only once one of its items needs one; or
   * refuse the read by throwing (a row that round-trip found missing, a store it found failing).
   */
  public SubjectKey forDecryption(
      String keyName,
      SubjectRef ref,
      SubjectKeyWrapping wrapping,
      Consumer<SubjectRef> beforeStoreRead) {
    SubjectKey cached = servableKey(ref);
    if (cached != null) {
      if (!cached.keyName().equals(keyName)) {
        throw new DecryptionFailedException();
      }
      return cached;
    }
    SubjectRecord row = byRef.getIfPresent(ref);
    if (row == null && beforeStoreRead != null) {
      beforeStoreRead.accept(ref);
      row = byRef.getIfPresent(ref);
    }
    if (row == null) {
      row = store.findByRef(List.of(ref)).get(ref);
      if (row == null) {
        throw new DecryptionFailedException();
      }
      byRef.put(ref, row);
    }
    if (!row.keyName().equals(keyName)) {
      throw new DecryptionFailedException();
    }
    if (row.isErased()) {
      throw new SubjectErasedException(keyName, row.erased(), false);
    }
    return keyOf(row, wrapping, () -> readAt(byRef, ref));
  }

  /**
   * The subject {@code ref} names, when this replica knows it without asking the store (its key or
   * its live row is cached) and {@code mayRead} accepts the name of the key it belongs to; else
   * null.
   */
  public SubjectHash cachedSubject(SubjectRef ref, Predicate<String> mayRead) {
    SubjectKey key = servableKey(ref);
    if (key != null) {
      return mayRead.test(key.keyName()) ? key.subjectHash() : null;
    }
    SubjectRecord row = byRef.getIfPresent(ref);
    return row != null && !row.isErased() && mayRead.test(row.keyName()) ? row.subjectHash() : null;
  }

  /**
   * Reads the rows of those of {@code refs} not cached, in one round-trip, for a batch's items;
   * returns those of them the store has no row for (none when nothing was read).
   */
  public Set<SubjectRef> prefetch(Collection<SubjectRef> refs) {
    // Warm refs (the usual case) cost one lookup each; only the others are gathered, once each.
    Set<SubjectRef> missing = null;
    for (SubjectRef ref : refs) {
      if (servableKey(ref) == null && byRef.getIfPresent(ref) == null) {
        if (missing == null) {
          missing = new LinkedHashSet<>();
        }
        missing.add(ref);
      }
    }
    if (missing == null) {
      return Set.of();
    }
    Map<SubjectRef, SubjectRecord> found = store.findByRef(missing);
    found.forEach(byRef::put);
    missing.removeAll(found.keySet());
    return missing;
  }

  /**
   * Erases these subjects under {@code keyName} now, in the store and in this replica's cache at
   * once; one result per subject, in order.
   */
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects) {
    // To the millisecond, as the store keeps it: the receipt and every later SUBJECT_ERASED agree.
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    for (SubjectHash subject : subjects) {
      forget(keyName, subject, now);
    }
    List<SubjectErasure> results = store.erase(keyName, subjects, now);
    for (SubjectErasure result : results) {
      forget(keyName, result.subjectHash(), now);
      for (SubjectRef ref : result.refs()) {
        byRef.invalidate(ref);
        dropErased(ref, now);
      }
      if (result.outcome() == SubjectErasure.Outcome.ERASED) {
        erased.incrementAndGet();
      }
    }
    return results;
  }

  private void forget(String keyName, SubjectHash subject, Instant erased) {
    Named named = new Named(keyName, subject);
    SubjectRecord row = byName.getIfPresent(named);
    byName.invalidate(named);
    if (row != null) {
      byRef.invalidate(row.ref());
      dropErased(row.ref(), erased);
    }
  }

  /**
   * Drops an erased subject's key from the cache and overwrites its bytes: a call still holding it
   * fails with SUBJECT_ERASED, as it would a moment later.
   */
  private void dropErased(SubjectRef ref, Instant erased) {
    SubjectKey key = keys.asMap().remove(ref);
    if (key != null) {
      key.wipe(erased);
    }
  }

  /** The row of {@code subject} under {@code keyName} in the store now (not cached), if any. */
  public Optional<SubjectRecord> find(String keyName, SubjectHash subject) {
    return Optional.ofNullable(store.find(keyName, List.of(subject)).get(subject));
  }

  /** Drops every cached row and key whose key is {@code keyName} (its versions changed). */
  public void forgetKey(String keyName) {
    byName.asMap().keySet().removeIf(named -> named.keyName().equals(keyName));
    byRef.asMap().values().removeIf(row -> row.keyName().equals(keyName));
    keys.asMap().values().removeIf(key -> key.keyName().equals(keyName));
    byId.asMap().keySet().removeIf(named -> named.keyName().equals(keyName));
  }

  private void remember(SubjectRecord row) {
    byName.put(new Named(row.keyName(), row.subjectHash()), row);
    byRef.put(row.ref(), row);
  }

  /** The cached key of {@code ref} if it may still serve ({@link SubjectKey#servable}), or null. */
  private SubjectKey servableKey(SubjectRef ref) {
    SubjectKey cached = keysQuietly.getIfPresentQuietly(ref);
    if (cached == null) {
      cached = keys.getIfPresent(ref); // counts the miss
    } else if (sampled()) {
      keys.getIfPresent(ref); // tells the eviction policy, counts one hit
      keyStats.recordHits(READ_SAMPLE - 1);
    }
    return cached != null && cached.servable() ? cached : null;
  }

  /** Whether this warm lookup is the one in {@link #READ_SAMPLE} that reads through the cache. */
  private static boolean sampled() {
    return ThreadLocalRandom.current().nextInt(READ_SAMPLE) == 0;
  }

  private static Named named(String keyName, SubjectHash subject) {
    return new Named(keyName, subject);
  }

  private static Named named(String keyName, SubjectRecord row) {
    return new Named(keyName, row.subjectHash());
  }

  /**
   * The unwrapped key of the live {@code row}, from the cache or unwrapped now; {@code readAt}:
   * when the store said so (asked only to unwrap).
   */
  private SubjectKey keyOf(SubjectRecord row, SubjectKeyWrapping wrapping, LongSupplier readAt) {
    SubjectKey cached = servableKey(row.ref());
    if (cached != null) {
      return cached;
    }
    byte[] bytes = wrapping.unwrap(row.wrappedKey(), row.ref());
    SubjectKey key =
        new SubjectKey(
            row.ref(),
            sharedName(row.keyName()),
            row.subjectHash(),
            row.wrapVersion(),
            bytes,
            keptCiphers.newSlot(),
            readAt.getAsLong() + ttl.toNanos());
    keys.put(row.ref(), key);
    return key;
  }

  private String sharedName(String keyName) {
    return keyNames.computeIfAbsent(keyName, name -> name);
  }

  /** Caffeine's statistics of the key cache and counters of creations and erasures. */
  public void bindTo(MeterRegistry registry) {
    CaffeineCacheMetrics.monitor(registry, keys, "subject_keys");
    FunctionCounter.builder("cipherd_subject_key_creations", created, AtomicLong::get)
        .description("new subject keys this replica created")
        .register(registry);
    FunctionCounter.builder("cipherd_subject_creations_refused", refused, AtomicLong::get)
        .description("new subjects refused by --subject-creation-rate (SUBJECT_QUOTA_EXCEEDED)")
        .register(registry);
    FunctionCounter.builder("cipherd_subjects_erased", erased, AtomicLong::get)
        .description("subjects this replica erased")
        .register(registry);
    Gauge.builder("cipherd_subject_kept_ciphers", keptCiphers, KeptCiphers::kept)
        .description(
            "ciphers kept initialised with a cached subject's key, so it skips the AES key schedule"
                + " (at most "
                + keptCiphers.limit()
                + ")")
        .register(registry);
  }
}

package io.cipherd.server.usage;

import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionUsage;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * This replica's use of each key version, and the totals of every replica as last merged through
 * the key store. Counting is a few LongAdder increments on the crypto path; {@link #merge} (every
 * few seconds, off that path) adds what was counted since the last merge to the store's totals, so
 * totals seen anywhere lag by at most one merge interval of each replica's traffic. Encryptions are
 * the exception that a cap needs: each reserves itself against its version's limit before it runs
 * ({@link #reserveEncryption}), exactly on this replica and within a block per replica across them.
 */
public final class UsageLedger {
  /** What is counted. */
  public enum Use {
    ENCRYPT,
    DECRYPT,
    REWRAP,
    INDEX,
    /** A call that named the version and failed with it: its data still exists. */
    FAILURE,
    /**
     * An index computed under a version by an all-versions lookup that asked for another: counted
     * apart, it neither sets the version's last use nor keeps it in use.
     */
    INDEX_LOOKUP
  }

  /**
   * The default of {@code --usage-cap-block}: how many encryptions of one version a replica may
   * reserve before it must merge them through the store (at most; see {@link #capBlock}).
   */
  public static final long DEFAULT_CAP_BLOCK = 1L << 24;

  /**
   * A version's block is at most this fraction of its limit, so replicas together can pass a small
   * cap by as little, relatively, as a large one.
   */
  public static final long BLOCKS_PER_LIMIT = 64;

  /**
   * How many encryptions of one version a batch or a stream's run reserves at once, while the
   * version is far from its limit ({@link EncryptionBlock}).
   */
  public static final long ENCRYPTION_BLOCK = 64;

  /**
   * A block is reserved only while the room left under the limit after it is at least this many
   * times all blocks held on the version: other calls would have to make that many encryptions
   * before a holder uses or gives back its block to be refused for want of it.
   */
  static final long BLOCK_MARGIN = 64;

  /**
   * How long an encryption at its version's limit waits for blocks held by batches to be settled
   * before it is refused: far longer than a batch holds one (until its run of items on the version
   * ends, or a stream's next look, 10 to 20 ms), so only a stalled holder makes a call refused for
   * room it would not use.
   */
  static final long BLOCK_WAIT_NANOS = 1_000_000_000L;

  private final UsageStore store;
  private final Clock clock;
  private final long capBlock;
  private final ConcurrentMap<String, ConcurrentMap<Integer, Pending>> pending =
      new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Map<Integer, VersionUsage>> merged =
      new ConcurrentHashMap<>();
  private final ConcurrentMap<String, ConcurrentMap<Integer, EncryptionCap>> caps =
      new ConcurrentHashMap<>();

  /** Merges of one key, and a key's first read of its totals, run one at a time: these lock. */
  private final ConcurrentMap<String, Object> keyLocks = new ConcurrentHashMap<>();

  public UsageLedger(UsageStore store, Clock clock) {
    this(store, clock, DEFAULT_CAP_BLOCK);
  }

  /**
   * A ledger whose replica reserves at most {@code capBlock} encryptions of a version between
   * merges ({@code --usage-cap-block}).
   */
  public UsageLedger(UsageStore store, Clock clock, long capBlock) {
    if (capBlock < 1) {
      throw new IllegalArgumentException("usage cap block must be at least 1, got " + capBlock);
    }
    this.store = store;
    this.clock = clock;
    this.capBlock = capBlock;
  }

  /**
   * How many encryptions of a version with {@code limit} this replica may reserve between merges:
   * {@code --usage-cap-block}, but at most a {@link #BLOCKS_PER_LIMIT}th of the limit and at least
   * one. Replicas that each hold a block pass the limit together by at most (replicas − 1) blocks.
   */
  public long capBlock(long limit) {
    return Math.max(1, Math.min(capBlock, limit / BLOCKS_PER_LIMIT));
  }

  /**
   * Reserves one encryption of version {@code version} of key {@code name} against {@code limit}
   * (0: none) before it runs, and counts it as this replica's use: returns false, reserving
   * nothing, once the version has made its limit as far as this replica knows. Exact on this
   * replica across concurrent calls, blocks included: while batches hold blocks of the version (see
   * {@link EncryptionBlock}) a call at the limit waits, up to {@link #BLOCK_WAIT_NANOS}, for them
   * to be settled and what they did not use given back. Each replica holds at most {@link
   * #capBlock} unmerged reservations: one that would hold more first merges the key through {@code
   * store}, which bounds both how far replicas together can pass the limit and the counts a killed
   * replica loses. A key's first reservation reads its totals there; such store calls throw as the
   * store does (an encryption that cannot be counted against its cap does not run).
   */
  public boolean reserveEncryption(String name, int version, long limit) {
    if (limit <= 0) {
      // Nothing to pass: counted only, with no store call.
      record(name, version, Use.ENCRYPT);
      return true;
    }
    EncryptionCap cap = loadedCap(name, version);
    long block = capBlock(limit);
    for (; ; ) {
      switch (cap.tryReserve(limit, block)) {
        case RESERVED -> {
          record(name, version, Use.ENCRYPT);
          return true;
        }
        case LIMIT_REACHED -> {
          // Blocks held by batches may hold room they will not use: refuse once they are settled.
          if (!cap.awaitNoBlockHeld(BLOCK_WAIT_NANOS)) {
            return false;
          }
        }
        case BLOCK_FULL -> mergeKey(name, /* add= */ true);
      }
    }
  }

  /**
   * A run of encryptions of version {@code version} of {@code name}, limited to {@code limit} (0:
   * none), for one holder to take one by one and count at once. The version's first reservation
   * must have been made ({@link #reserveEncryption}): its totals are read.
   */
  public EncryptionBlock encryptionBlock(String name, int version, long limit) {
    return new EncryptionBlock(this, name, version, limit);
  }

  /**
   * Reserves {@link #ENCRYPTION_BLOCK} encryptions of a capped version at once, unless it is near
   * {@code limit}; see {@link EncryptionCap#tryReserveBlock}.
   */
  boolean reserveBlock(String name, int version, long limit) {
    return loadedCap(name, version)
        .tryReserveBlock(limit, capBlock(limit), ENCRYPTION_BLOCK, BLOCK_MARGIN);
  }

  /**
   * Counts {@code made} encryptions of a block holder at once and, under a {@code limit}, settles
   * its block, giving back the {@code unused} reservations.
   */
  void settleBlock(String name, int version, long limit, long made, long unused) {
    // Counted first, then unreserved: meanwhile the cap counts them once too often, never too few.
    if (made != 0) {
      record(name, version, Use.ENCRYPT, made);
    }
    if (limit > 0) {
      caps.get(name).get(version).settleBlock(ENCRYPTION_BLOCK, unused);
    }
  }

  /**
   * Gives back a reservation of {@link #reserveEncryption} whose encryption failed before any
   * ciphertext was made: it counts no more.
   */
  public void releaseEncryption(String name, int version) {
    // Uncounted first, then unreserved: meanwhile the cap counts it once too often, never too few.
    record(name, version, Use.ENCRYPT, -1);
    ConcurrentMap<Integer, EncryptionCap> versions = caps.get(name);
    EncryptionCap cap = versions == null ? null : versions.get(version);
    if (cap != null) {
      cap.release();
    }
  }

  /**
   * Whether {@link #reserveEncryption} of version {@code version} of {@code name} would need no
   * store call now.
   */
  public boolean canReserveFromMemory(String name, int version, long limit) {
    if (limit <= 0) {
      return true;
    }
    if (!merged.containsKey(name)) {
      return false;
    }
    // A version without a cap yet gets one from the merged totals, in memory.
    ConcurrentMap<Integer, EncryptionCap> versions = caps.get(name);
    EncryptionCap cap = versions == null ? null : versions.get(version);
    return cap == null || cap.hasRoom(limit, capBlock(limit));
  }

  /** Reads a key's totals from the store before its first reservation on this replica. */
  public void load(String name) {
    if (!merged.containsKey(name)) {
      mergeKey(name, /* add= */ false);
    }
  }

  private EncryptionCap loadedCap(String name, int version) {
    load(name);
    ConcurrentMap<Integer, EncryptionCap> versions = caps.get(name);
    EncryptionCap cap = versions == null ? null : versions.get(version);
    if (cap != null) {
      return cap;
    }
    // Under the key's lock, so a merge moves every cap it could miss: a new cap starts from the
    // totals of the last merge.
    synchronized (keyLock(name)) {
      return caps.computeIfAbsent(name, n -> new ConcurrentHashMap<>())
          .computeIfAbsent(
              version,
              v ->
                  new EncryptionCap(
                      merged
                          .getOrDefault(name, Map.of())
                          .getOrDefault(v, VersionUsage.NONE)
                          .encryptions(),
                      unmergedEncryptions(name, v)));
    }
  }

  /** Encryptions of a version counted here since the last merge (when it had no limit). */
  private long unmergedEncryptions(String name, int version) {
    ConcurrentMap<Integer, Pending> versions = pending.get(name);
    Pending counts = versions == null ? null : versions.get(version);
    return counts == null ? 0 : counts.encryptions.sum();
  }

  private Object keyLock(String name) {
    return keyLocks.computeIfAbsent(name, n -> new Object());
  }

  /** Counts one use of version {@code version} of key {@code name}. */
  public void record(String name, int version, Use use) {
    record(name, version, use, 1);
  }

  /**
   * Counts {@code uses} uses at once, as a batch tells them. Encryptions are counted by {@link
   * #reserveEncryption}, before they run, or when an {@link EncryptionBlock} settles.
   */
  public void record(String name, int version, Use use, long uses) {
    ConcurrentMap<Integer, Pending> versions = pending.get(name);
    if (versions == null) {
      versions = pending.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
    }
    Pending counts = versions.get(version);
    if (counts == null) {
      counts = versions.computeIfAbsent(version, v -> new Pending());
    }
    counts.add(use, uses, clock.millis());
  }

  /** The keys this replica has used since it started. */
  public Set<String> usedKeys() {
    return Set.copyOf(pending.keySet());
  }

  /**
   * Adds what each key counted since its last merge to the store's totals. A key whose merge fails
   * (store unavailable) keeps its counts for the next merge; returns how many keys failed.
   */
  public int merge() {
    int failed = 0;
    for (String name : pending.keySet()) {
      try {
        mergeKey(name, /* add= */ true);
      } catch (RuntimeException e) {
        failed++;
      }
    }
    return failed;
  }

  /**
   * Adds what key {@code name} counted since its last merge to the store's totals if {@code add}
   * (else, or if it counted nothing, reads them), and moves its caps to the new totals; throws as
   * the store does, keeping the counts for the next merge.
   */
  private void mergeKey(String name, boolean add) {
    synchronized (keyLock(name)) {
      ConcurrentMap<Integer, Pending> versions = pending.get(name);
      Map<Integer, VersionUsage> delta = new HashMap<>();
      if (add && versions != null) {
        versions.forEach(
            (version, counts) -> {
              VersionUsage taken = counts.take();
              if (!taken.isEmpty()) {
                delta.put(version, taken);
              }
            });
      }
      Map<Integer, VersionUsage> totals;
      try {
        totals = delta.isEmpty() ? store.readUsage(name) : store.addUsage(name, delta);
      } catch (RuntimeException e) {
        delta.forEach((version, usage) -> versions.get(version).putBack(usage));
        throw e;
      }
      merged.put(name, totals);
      ConcurrentMap<Integer, EncryptionCap> capped = caps.get(name);
      if (capped != null) {
        capped.forEach(
            (version, cap) ->
                cap.merged(
                    totals.getOrDefault(version, VersionUsage.NONE).encryptions(),
                    delta.getOrDefault(version, VersionUsage.NONE).encryptions()));
      }
    }
  }

  /** Every version's usage: the merged totals plus what this replica counted since. */
  public Map<Integer, VersionUsage> usage(String name) {
    Map<Integer, VersionUsage> all = new HashMap<>(merged.getOrDefault(name, Map.of()));
    ConcurrentMap<Integer, Pending> local = pending.get(name);
    if (local != null) {
      local.forEach((version, counts) -> all.merge(version, counts.peek(), VersionUsage::plus));
    }
    return all;
  }

  /**
   * The encryptions of one version known here: the totals of the last merge plus what this replica
   * reserved since (in flight included), once the key's totals were read; before, what this replica
   * counted. A few map reads and no store call.
   */
  public long encryptions(String name, int version) {
    ConcurrentMap<Integer, EncryptionCap> capped = caps.get(name);
    EncryptionCap cap = capped == null ? null : capped.get(version);
    if (cap != null && merged.containsKey(name)) {
      return cap.claimed();
    }
    long known = 0;
    Map<Integer, VersionUsage> totals = merged.get(name);
    if (totals != null) {
      known += totals.getOrDefault(version, VersionUsage.NONE).encryptions();
    }
    ConcurrentMap<Integer, Pending> local = pending.get(name);
    Pending counts = local == null ? null : local.get(version);
    if (counts != null) {
      known += counts.encryptions.sum();
    }
    return known;
  }

  /** Reads a key's merged totals from the store (for a key this replica has not used yet). */
  public Map<Integer, VersionUsage> refresh(String name) {
    mergeKey(name, /* add= */ false);
    return usage(name);
  }

  /**
   * Counts since the last merge of one version; {@link #take} and {@link #peek} never lose an
   * increment.
   */
  private static final class Pending {
    private final LongAdder encryptions = new LongAdder();
    private final LongAdder decryptions = new LongAdder();
    private final LongAdder rewraps = new LongAdder();
    private final LongAdder indexes = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAccumulator lastUsed = new LongAccumulator(Math::max, 0);
    private final LongAdder indexLookups = new LongAdder();
    private final LongAccumulator lastLookup = new LongAccumulator(Math::max, 0);

    void add(Use use, long uses, long now) {
      switch (use) {
        case ENCRYPT -> encryptions.add(uses);
        case DECRYPT -> decryptions.add(uses);
        case REWRAP -> rewraps.add(uses);
        case INDEX -> indexes.add(uses);
        case FAILURE -> failures.add(uses);
        case INDEX_LOOKUP -> {
          indexLookups.add(uses);
          lastLookup.accumulate(now);
          return;
        }
      }
      lastUsed.accumulate(now);
    }

    VersionUsage take() {
      return new VersionUsage(
          encryptions.sumThenReset(),
          decryptions.sumThenReset(),
          rewraps.sumThenReset(),
          indexes.sumThenReset(),
          instant(lastUsed.get()),
          failures.sumThenReset(),
          indexLookups.sumThenReset(),
          instant(lastLookup.get()));
    }

    VersionUsage peek() {
      return new VersionUsage(
          encryptions.sum(),
          decryptions.sum(),
          rewraps.sum(),
          indexes.sum(),
          instant(lastUsed.get()),
          failures.sum(),
          indexLookups.sum(),
          instant(lastLookup.get()));
    }

    private static Instant instant(long millis) {
      return millis == 0 ? null : Instant.ofEpochMilli(millis);
    }

    void putBack(VersionUsage usage) {
      encryptions.add(usage.encryptions());
      decryptions.add(usage.decryptions());
      rewraps.add(usage.rewraps());
      indexes.add(usage.indexes());
      failures.add(usage.failures());
      indexLookups.add(usage.indexLookups());
    }
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.crypto.CipherMode;
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
 * totals seen anywhere lag by at most one merge interval of each replica's traffic.
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

  private final Clock clock;
  private final ConcurrentMap<String, ConcurrentMap<Integer, Pending>> pending =
      new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Map<Integer, VersionUsage>> merged =
      new ConcurrentHashMap<>();

  public UsageLedger(Clock clock) {
    this.clock = clock;
  }

  /** Counts one use of version {@code version} of key {@code name}. */
  public void record(String name, int version, Use use) {
    record(name, version, use, 1);
  }

  /** Counts {@code uses} uses at once, as a batch tells them. */
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
  public int merge(KeyStore store) {
    int failed = 0;
    for (Map.Entry<String, ConcurrentMap<Integer, Pending>> key : pending.entrySet()) {
      Map<Integer, VersionUsage> delta = new HashMap<>();
      key.getValue()
          .forEach(
              (version, counts) -> {
                VersionUsage taken = counts.take();
                if (!taken.isEmpty()) {
                  delta.put(version, taken);
                }
              });
      try {
        merged.put(
            key.getKey(),
            delta.isEmpty() ? store.readUsage(key.getKey()) : store.addUsage(key.getKey(), delta));
      } catch (RuntimeException e) {
        delta.forEach((version, usage) -> key.getValue().get(version).putBack(usage));
        failed++;
      }
    }
    return failed;
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
   * The encryptions of one version known here, for the crypto path's cap: the totals of the last
   * merge plus what this replica counted since; a few map reads and no store call. It lags other
   * replicas by one merge interval, and during a merge of this key it may briefly miss what that
   * merge is adding, which is why limits leave room for lag ({@link CipherMode#encryptionLimit}).
   */
  public long encryptions(String name, int version) {
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
  public Map<Integer, VersionUsage> refresh(String name, KeyStore store) {
    Map<Integer, VersionUsage> totals = store.readUsage(name);
    merged.put(name, totals);
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

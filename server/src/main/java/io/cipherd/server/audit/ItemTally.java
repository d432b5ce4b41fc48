package io.cipherd.server.audit;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one call did to each key version it used: how many items ended in each outcome ({@code ok}
 * or an error reason). Items that failed before reaching a key version (a malformed ciphertext, an
 * unknown key) count under version 0, so the tally accounts for every item of a batch or stream.
 *
 * <p>A call's items are counted by the threads that serve it, one at a time for a call, so the
 * methods are synchronized only to publish the counts to the thread that writes the record.
 */
public final class ItemTally {
  /** The version items count under when they never reached one. */
  public static final int NO_VERSION = 0;

  private final Map<KeyVersion, Map<String, long[]>> counts = new LinkedHashMap<>(4);

  /** Counts one item of {@code keyName}'s {@code version} that ended in {@code outcome}. */
  public synchronized void add(String keyName, int version, String outcome) {
    add(keyName, version, outcome, 1);
  }

  /** Counts {@code items} items at once (a whole batch refused). */
  public synchronized void add(String keyName, int version, String outcome, long items) {
    counts.computeIfAbsent(new KeyVersion(keyName, version), v -> new LinkedHashMap<>(2))
            .computeIfAbsent(outcome, o -> new long[1])[0] +=
        items;
  }

  /** The counts so far, in the order versions were first used. */
  public synchronized List<VersionOutcomes> snapshot() {
    List<VersionOutcomes> out = new ArrayList<>(counts.size());
    counts.forEach(
        (version, outcomes) -> {
          Map<String, Long> copy = new LinkedHashMap<>(outcomes.size());
          outcomes.forEach((outcome, n) -> copy.put(outcome, n[0]));
          out.add(new VersionOutcomes(version.keyName(), version.version(), copy));
        });
    return out;
  }

  /** The number of items counted. */
  public synchronized long items() {
    long total = 0;
    for (Map<String, long[]> outcomes : counts.values()) {
      for (long[] n : outcomes.values()) {
        total += n[0];
      }
    }
    return total;
  }

  private record KeyVersion(String keyName, int version) {}

  /** One key version's items per outcome. */
  public record VersionOutcomes(String keyName, int version, Map<String, Long> outcomes) {
    public VersionOutcomes {
      // In the order outcomes were first counted, so a record's bytes do not depend on hashing.
      outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    }
  }
}

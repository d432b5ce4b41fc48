package io.cipherd.server.audit;

import java.util.ArrayList;
import java.util.Arrays;
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
 * Counting an item allocates nothing once its version and outcome were seen: a call uses few
 * versions and outcomes, found by a linear scan comparing the (constant) outcome strings by
 * identity first.
 */
public final class ItemTally {
  /** The version items count under when they never reached one. */
  public static final int NO_VERSION = 0;

  private Row[] rows = new Row[2];
  private int size;

  /** Counts one item of {@code keyName}'s {@code version} that ended in {@code outcome}. */
  public synchronized void add(String keyName, int version, String outcome) {
    row(keyName, version).add(outcome, 1);
  }

  /** Counts {@code items} items at once (a whole batch refused). */
  public synchronized void add(String keyName, int version, String outcome, long items) {
    row(keyName, version).add(outcome, items);
  }

  /** The counts so far, in the order versions were first used. */
  public synchronized List<VersionOutcomes> snapshot() {
    List<VersionOutcomes> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Row row = rows[i];
      Map<String, Long> copy = new LinkedHashMap<>(row.size * 2);
      for (int o = 0; o < row.size; o++) {
        copy.put(row.outcomes[o], row.counts[o]);
      }
      out.add(new VersionOutcomes(row.keyName, row.version, copy));
    }
    return out;
  }

  /** The number of items counted. */
  public synchronized long items() {
    long total = 0;
    for (int i = 0; i < size; i++) {
      for (int o = 0; o < rows[i].size; o++) {
        total += rows[i].counts[o];
      }
    }
    return total;
  }

  private Row row(String keyName, int version) {
    for (int i = 0; i < size; i++) {
      Row row = rows[i];
      if (row.version == version && (row.keyName == keyName || row.keyName.equals(keyName))) {
        return row;
      }
    }
    if (size == rows.length) {
      rows = Arrays.copyOf(rows, size * 2);
    }
    Row row = new Row(keyName, version);
    rows[size++] = row;
    return row;
  }

  /** One key version's outcomes and their counts, in the order first seen. */
  private static final class Row {
    final String keyName;
    final int version;
    String[] outcomes = new String[2];
    long[] counts = new long[2];
    int size;

    Row(String keyName, int version) {
      this.keyName = keyName;
      this.version = version;
    }

    void add(String outcome, long items) {
      for (int o = 0; o < size; o++) {
        if (outcomes[o] == outcome || outcomes[o].equals(outcome)) {
          counts[o] += items;
          return;
        }
      }
      if (size == outcomes.length) {
        outcomes = Arrays.copyOf(outcomes, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
      }
      outcomes[size] = outcome;
      counts[size++] = items;
    }
  }

  /** One key version's items per outcome. */
  public record VersionOutcomes(String keyName, int version, Map<String, Long> outcomes) {
    public VersionOutcomes {
      // In the order outcomes were first counted, so a record's bytes do not depend on hashing.
      outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    }
  }
}

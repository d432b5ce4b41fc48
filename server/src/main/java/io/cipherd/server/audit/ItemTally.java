package io.cipherd.server.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one call did to each key version it used: how many items ended in each outcome ({@code ok}
 * or an error reason). Items that failed before reaching a key version (a malformed ciphertext, an
 * unknown key) count under version 0, so the tally accounts for every item of a batch or stream.
 *
 * <p>A record's size must not grow with what a caller names: a batch of 4,096 items naming 4,096
 * keys (or versions) would otherwise make a record of half a megabyte. So the tally keeps a row for
 * at most {@value #MAX_ROWS} key versions, the first ones the call used, and folds every other into
 * one aggregate row ({@link Folded}): its items per outcome and how many distinct key versions went
 * into it. The counts still add up to the call's items.
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

  /** The most key versions a record names one by one; the rest are folded into one row. */
  public static final int MAX_ROWS = 16;

  /**
   * The most distinct folded key versions told apart: beyond, {@link Folded#keyVersions} is a lower
   * bound ({@link Folded#more}), so a long stream cannot make the tally grow without end.
   */
  static final int MAX_FOLDED_COUNTED = 4096;

  private Row[] rows = new Row[2];
  private int size;
  private Row folded;
  private Set<Long> foldedKeyVersions;
  private boolean foldedMore;

  /** Counts one item of {@code keyName}'s {@code version} that ended in {@code outcome}. */
  public synchronized void add(String keyName, int version, String outcome) {
    row(keyName, version).add(outcome, 1);
  }

  /** Counts {@code items} items at once (a whole batch refused). */
  public synchronized void add(String keyName, int version, String outcome, long items) {
    row(keyName, version).add(outcome, items);
  }

  /** The rows so far (at most {@value #MAX_ROWS}), in the order versions were first used. */
  public synchronized List<VersionOutcomes> snapshot() {
    List<VersionOutcomes> out = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      Row row = rows[i];
      out.add(new VersionOutcomes(row.keyName, row.version, row.outcomes()));
    }
    return out;
  }

  /** The aggregate row of the key versions past the first {@value #MAX_ROWS}, or null if none. */
  public synchronized Folded folded() {
    if (folded == null) {
      return null;
    }
    return new Folded(foldedKeyVersions.size(), foldedMore, folded.outcomes());
  }

  /** The number of items counted. */
  public synchronized long items() {
    long total = folded == null ? 0 : folded.items();
    for (int i = 0; i < size; i++) {
      total += rows[i].items();
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
    if (size == MAX_ROWS) {
      return fold(keyName, version);
    }
    if (size == rows.length) {
      rows = Arrays.copyOf(rows, size * 2);
    }
    Row row = new Row(keyName, version);
    rows[size++] = row;
    return row;
  }

  private Row fold(String keyName, int version) {
    if (folded == null) {
      folded = new Row(null, NO_VERSION);
      foldedKeyVersions = new HashSet<>();
    }
    long id = (long) keyName.hashCode() << 32 | (version & 0xffffffffL);
    if (!foldedKeyVersions.contains(id)) {
      if (foldedKeyVersions.size() < MAX_FOLDED_COUNTED) {
        foldedKeyVersions.add(id);
      } else {
        foldedMore = true;
      }
    }
    return folded;
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

    long items() {
      long total = 0;
      for (int o = 0; o < size; o++) {
        total += counts[o];
      }
      return total;
    }

    Map<String, Long> outcomes() {
      Map<String, Long> copy = new LinkedHashMap<>(size * 2);
      for (int o = 0; o < size; o++) {
        copy.put(outcomes[o], counts[o]);
      }
      return copy;
    }
  }

  /** One key version's items per outcome. */
  public record VersionOutcomes(String keyName, int version, Map<String, Long> outcomes) {
    public VersionOutcomes {
      // In the order outcomes were first counted, so a record's bytes do not depend on hashing.
      outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    }
  }

  /**
   * The aggregate row of the key versions a call used past the first {@value #MAX_ROWS}.
   *
   * @param keyVersions how many distinct key versions were folded in (told apart by a hash of the
   *     name and the version; a lower bound when {@code more})
   * @param more whether more than {@value #MAX_FOLDED_COUNTED} were folded, so {@code keyVersions}
   *     stopped counting
   * @param outcomes their items per outcome, in the order first seen
   */
  public record Folded(long keyVersions, boolean more, Map<String, Long> outcomes) {
    public Folded {
      outcomes = Collections.unmodifiableMap(new LinkedHashMap<>(outcomes));
    }
  }
}

package io.cipherd.server.lifecycle;

import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one scan of stored data found, without decrypting: how many ciphertexts name each version of
 * one key. Traffic shows what is read; an inventory shows what exists, cold rows included, so a
 * retirement refuses while one counts a ciphertext under a version it would retire. Validated on
 * construction: a source of at most {@value #MAX_SOURCE_LENGTH} characters, at most {@value
 * #MAX_VERSIONS} versions, each at least 1 and named once, counts not negative.
 *
 * @param keyName the key whose ciphertexts were counted
 * @param source what was scanned, e.g. {@code postgres:users.email}
 * @param scanTime when the scan finished; null if the scan did not say
 * @param itemsScanned how many values the scan read, of any key or none
 * @param ciphertexts the count of ciphertexts under each version, by version
 */
public record DataInventory(
    String keyName,
    String source,
    Instant scanTime,
    long itemsScanned,
    SortedMap<Integer, Long> ciphertexts) {
  /** A source is a name for people and the audit trail, not a document. */
  public static final int MAX_SOURCE_LENGTH = 256;

  /** More versions than any key has in one inventory is a mistake, not a scan. */
  public static final int MAX_VERSIONS = 1000;

  /**
   * More inventories than this in one request is a mistake; each is recorded in the audit trail.
   */
  public static final int MAX_INVENTORIES = 100;

  public DataInventory {
    if (source.length() > MAX_SOURCE_LENGTH) {
      throw new InvalidArgumentException(
          "inventories: source must be at most " + MAX_SOURCE_LENGTH + " characters");
    }
    if (itemsScanned < 0) {
      throw new InvalidArgumentException(
          "inventories: items_scanned must not be negative (source '" + source + "')");
    }
    if (ciphertexts.size() > MAX_VERSIONS) {
      throw new InvalidArgumentException(
          "inventories: at most " + MAX_VERSIONS + " versions per inventory");
    }
    for (Map.Entry<Integer, Long> count : ciphertexts.entrySet()) {
      if (count.getKey() < 1) {
        throw new InvalidArgumentException(
            "inventories: versions must be 1 or more, got "
                + count.getKey()
                + " (source '"
                + source
                + "')");
      }
      if (count.getValue() < 0) {
        throw new InvalidArgumentException(
            "inventories: ciphertexts must not be negative (source '"
                + source
                + "', version "
                + count.getKey()
                + ")");
      }
    }
    ciphertexts = Collections.unmodifiableSortedMap(new TreeMap<>(ciphertexts));
  }

  /**
   * The versions below {@code belowVersion} this inventory counts ciphertexts under, oldest first.
   */
  public SortedMap<Integer, Long> below(int belowVersion) {
    SortedMap<Integer, Long> found = new TreeMap<>();
    ciphertexts
        .headMap(belowVersion)
        .forEach(
            (version, count) -> {
              if (count > 0) {
                found.put(version, count);
              }
            });
    return found;
  }
}

package io.cipherd.server.keys;

import java.time.Instant;

/**
 * How much one key version has been used: counts, and when it was last used (null if never).
 * All-versions index lookups are counted apart: they are reads of old indexes, not data under the
 * version, so they neither set {@code lastUsed} nor keep the version in use in the census.
 *
 * @param encryptions messages encrypted with the version (rewraps into it included)
 * @param decryptions ciphertexts of the version decrypted (rewraps out of it included)
 * @param rewraps ciphertexts of the version rewrapped to another version or key
 * @param indexes blind indexes an index key's version computed, all-versions lookups excepted
 * @param lastUsed the last use of any kind counted, failures included and lookups excepted, or null
 * @param failures calls by callers allowed to use the version that named it and failed to decrypt
 *     with it (wrong context, tampered, below min_decryption_version, pending destruction): data
 *     under the version still exists
 * @param indexLookups indexes computed under the version by all-versions lookups asked for another
 * @param lastLookup the last such lookup, or null
 */
public record VersionUsage(
    long encryptions,
    long decryptions,
    long rewraps,
    long indexes,
    Instant lastUsed,
    long failures,
    long indexLookups,
    Instant lastLookup) {
  public static final VersionUsage NONE = new VersionUsage(0, 0, 0, 0, /* lastUsed= */ null);

  /** Usage without failures or lookups. */
  public VersionUsage(
      long encryptions, long decryptions, long rewraps, long indexes, Instant lastUsed) {
    this(encryptions, decryptions, rewraps, indexes, lastUsed, /* failures= */ 0);
  }

  /** Usage without lookups. */
  public VersionUsage(
      long encryptions,
      long decryptions,
      long rewraps,
      long indexes,
      Instant lastUsed,
      long failures) {
    this(encryptions, decryptions, rewraps, indexes, lastUsed, failures, 0, /* lastLookup= */ null);
  }

  /** The sum of both, with the later of each pair of times. */
  public VersionUsage plus(VersionUsage other) {
    return new VersionUsage(
        encryptions + other.encryptions,
        decryptions + other.decryptions,
        rewraps + other.rewraps,
        indexes + other.indexes,
        later(lastUsed, other.lastUsed),
        failures + other.failures,
        indexLookups + other.indexLookups,
        later(lastLookup, other.lastLookup));
  }

  private static Instant later(Instant a, Instant b) {
    return a == null ? b : b == null || a.isAfter(b) ? a : b;
  }

  /** Whether nothing was counted. */
  public boolean isEmpty() {
    return encryptions == 0
        && decryptions == 0
        && rewraps == 0
        && indexes == 0
        && failures == 0
        && indexLookups == 0;
  }
}

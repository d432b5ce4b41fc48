package io.cipherd.server.keys;

import java.time.Instant;

/**
 * How much one key version has been used: counts, and when it was last used (null if never).
 *
 * @param encryptions messages encrypted with the version (rewraps into it included)
 * @param decryptions ciphertexts of the version decrypted (rewraps out of it included)
 * @param rewraps ciphertexts of the version rewrapped to another version or key
 * @param indexes blind indexes an index key's version computed
 * @param lastUsed the last use of any kind counted, failures included, or null
 * @param failures calls by callers allowed to use the version that named it and failed to decrypt
 *     with it (wrong context, tampered, below min_decryption_version, pending destruction): data
 *     under the version still exists
 */
public record VersionUsage(
    long encryptions,
    long decryptions,
    long rewraps,
    long indexes,
    Instant lastUsed,
    long failures) {
  public static final VersionUsage NONE = new VersionUsage(0, 0, 0, 0, /* lastUsed= */ null);

  /** Usage without failures. */
  public VersionUsage(
      long encryptions, long decryptions, long rewraps, long indexes, Instant lastUsed) {
    this(encryptions, decryptions, rewraps, indexes, lastUsed, /* failures= */ 0);
  }

  /** The sum of both, with the later of the two last-used times. */
  public VersionUsage plus(VersionUsage other) {
    Instant later =
        lastUsed == null
            ? other.lastUsed
            : other.lastUsed == null || lastUsed.isAfter(other.lastUsed)
                ? lastUsed
                : other.lastUsed;
    return new VersionUsage(
        encryptions + other.encryptions,
        decryptions + other.decryptions,
        rewraps + other.rewraps,
        indexes + other.indexes,
        later,
        failures + other.failures);
  }

  /** Whether nothing was counted. */
  public boolean isEmpty() {
    return encryptions == 0 && decryptions == 0 && rewraps == 0 && indexes == 0 && failures == 0;
  }
}

package io.cipherd.client;

import java.util.List;

/**
 * A key's versions with their usage, whether each was used within the quiet period, and the highest
 * minDecryptionVersion that refuses no version in use.
 */
public record KeyCensus(Key key, List<Version> versions, int safeMinDecryptionVersion) {
  /**
   * One version's usage summed over every replica, whether it was used in the quiet period, and how
   * many live subject keys it wraps (a version that wraps any cannot be retired until the
   * subject-key sweep rewrapped them).
   */
  public record Version(int version, KeyUsage usage, boolean inUse, long subjectKeys) {}
}

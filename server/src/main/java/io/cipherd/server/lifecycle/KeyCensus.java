package io.cipherd.server.lifecycle;

import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.VersionUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which versions of a key still see traffic, so an operator knows how far min_decryption_version
 * can be raised: versions from the current minimum up, oldest first, each with its usage.
 *
 * @param key the key's metadata
 * @param versions the versions the policy still lets decrypt, oldest first
 * @param safeMinDecryptionVersion the highest minimum that refuses no version used within the quiet
 *     period
 */
public record KeyCensus(KeyMetadata key, List<Entry> versions, int safeMinDecryptionVersion) {
  /** Seven days without use make a version idle unless the caller says otherwise. */
  public static final Duration DEFAULT_QUIET_PERIOD = Duration.ofDays(7);

  /**
   * Ten years: longer than any key is kept in use, and far from the range where "now minus the
   * period" overflows an Instant.
   */
  public static final Duration MAX_QUIET_PERIOD = Duration.ofDays(3650);

  /**
   * One version's traffic.
   *
   * @param version the version number
   * @param usage its use across replicas
   * @param inUse whether it was used within the quiet period, or still wraps live subject keys
   * @param subjectKeys how many live subject keys it wraps (the sweep moves them after a rotation)
   */
  public record Entry(int version, VersionUsage usage, boolean inUse, long subjectKeys) {}

  /**
   * The quiet period to use for {@code requested}: the default when it is null or zero; throws
   * {@link InvalidArgumentException} when it is negative or above {@link #MAX_QUIET_PERIOD}.
   */
  static Duration quietPeriod(Duration requested) {
    if (requested == null || requested.isZero()) {
      return DEFAULT_QUIET_PERIOD;
    }
    if (requested.isNegative() || requested.compareTo(MAX_QUIET_PERIOD) > 0) {
      throw new InvalidArgumentException(
          "quiet_period must be at most " + MAX_QUIET_PERIOD.toDays() + " days, and not negative");
    }
    return requested;
  }

  /**
   * The census of {@code key}, counting versions used after {@code now} minus {@code quietPeriod}
   * (see {@link #quietPeriod}).
   */
  static KeyCensus of(
      KeyMetadata key, Map<Integer, VersionUsage> usage, Duration quietPeriod, Instant now) {
    return of(key, usage, quietPeriod, now, Map.of());
  }

  /**
   * As {@link #of(KeyMetadata, Map, Duration, Instant)}, a version that wraps live subject keys
   * ({@code subjectKeys}, by version) counting as in use: raising the minimum past it would refuse
   * its subjects' data.
   */
  static KeyCensus of(
      KeyMetadata key,
      Map<Integer, VersionUsage> usage,
      Duration quietPeriod,
      Instant now,
      Map<Integer, Long> subjectKeys) {
    Instant since = now.minus(quietPeriod(quietPeriod));
    List<Entry> entries = new ArrayList<>();
    int safe = key.currentVersion();
    for (int v = Math.max(1, key.policy().minDecryptionVersion()); v <= key.currentVersion(); v++) {
      VersionUsage used = usage.getOrDefault(v, VersionUsage.NONE);
      long wrapping = subjectKeys.getOrDefault(v, 0L);
      boolean inUse = (used.lastUsed() != null && used.lastUsed().isAfter(since)) || wrapping > 0;
      if (inUse && v < safe) {
        safe = v;
      }
      entries.add(new Entry(v, used, inUse, wrapping));
    }
    return new KeyCensus(key, entries, safe);
  }
}

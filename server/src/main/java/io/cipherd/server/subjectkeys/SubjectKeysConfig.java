package io.cipherd.server.subjectkeys;

import java.time.Duration;

/**
 * How subject keys are cached and created.
 *
 * @param cacheSize at most this many unwrapped subject keys (and as many store rows) in memory
 * @param cacheTtl how long a cached subject key or state is used before the store is asked again:
 *     an erasure on another replica is honoured here within this time
 * @param creationRate new subject keys one caller may create per second, with a burst of ten
 *     seconds' worth; 0 for no limit
 */
public record SubjectKeysConfig(int cacheSize, Duration cacheTtl, int creationRate) {
  public static final int DEFAULT_CACHE_SIZE = 100_000;
  public static final Duration DEFAULT_CACHE_TTL = Duration.ofSeconds(5);
  public static final int DEFAULT_CREATION_RATE = 1000;

  public static final SubjectKeysConfig DEFAULT =
      new SubjectKeysConfig(DEFAULT_CACHE_SIZE, DEFAULT_CACHE_TTL, DEFAULT_CREATION_RATE);

  public SubjectKeysConfig {
    if (cacheSize < 0) {
      throw new IllegalArgumentException("subject cache size must be at least 0, got " + cacheSize);
    }
    if (cacheTtl.isNegative()) {
      throw new IllegalArgumentException("subject cache TTL must not be negative, got " + cacheTtl);
    }
    if (creationRate < 0) {
      throw new IllegalArgumentException(
          "subject creation rate must be at least 0 (0: unlimited), got " + creationRate);
    }
  }
}

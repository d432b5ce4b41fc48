package io.cipherd.server.importjobs;

import java.time.Duration;

/**
 * How long an import job lives and how many may be live at once. Every job costs an RSA key
 * generation (one core for a fraction of a second to seconds) and holds a private key in memory
 * until it is used or expires, so both are bounded: at most {@code maxLive} jobs on this replica,
 * at most {@code maxLivePerCaller} of them one caller's, and one key generation at a time.
 *
 * @param ttl how long a job accepts its import, at most {@link #MAX_TTL}
 * @param maxLive the most jobs, unused and unexpired, this replica holds
 * @param maxLivePerCaller the most of those one caller identity holds
 */
public record ImportJobsConfig(Duration ttl, int maxLive, int maxLivePerCaller) {
  /** As AWS KMS's import tokens: a job is for an import about to happen, not for keeping. */
  public static final Duration MAX_TTL = Duration.ofHours(24);

  public static final ImportJobsConfig DEFAULT = new ImportJobsConfig(MAX_TTL, 64, 8);

  public ImportJobsConfig {
    if (ttl == null || ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(MAX_TTL) > 0) {
      throw new IllegalArgumentException(
          "the import job lifetime must be between PT1S and " + MAX_TTL + ", got " + ttl);
    }
    if (maxLive < 1 || maxLivePerCaller < 1) {
      throw new IllegalArgumentException(
          "the live import job limits must be at least 1, got "
              + maxLive
              + " and "
              + maxLivePerCaller
              + " per caller");
    }
  }
}

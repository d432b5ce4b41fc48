package io.cipherd.server.pool;

import java.time.Duration;

/**
 * Bounds of the per-mode cipher pools.
 *
 * @param maxTotal most ciphers of one mode in use or idle at once
 * @param maxIdle most idle ciphers of one mode kept for reuse
 * @param maxWait longest a caller waits for a cipher before RESOURCE_EXHAUSTED
 */
public record CipherPoolConfig(int maxTotal, int maxIdle, Duration maxWait) {
  /** Enough for every event-loop and worker thread of a small node to hold one cipher per mode. */
  public static final CipherPoolConfig DEFAULT =
      new CipherPoolConfig(64, 64, Duration.ofMillis(200));

  public CipherPoolConfig {
    if (maxTotal < 1) {
      throw new IllegalArgumentException(
          "cipher pool max total must be at least 1, got " + maxTotal);
    }
    if (maxIdle < 0 || maxIdle > maxTotal) {
      throw new IllegalArgumentException(
          "cipher pool max idle must be between 0 and max total, got " + maxIdle);
    }
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("cipher pool max wait must not be negative");
    }
  }
}

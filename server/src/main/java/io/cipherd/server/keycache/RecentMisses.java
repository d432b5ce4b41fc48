package io.cipherd.server.keycache;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Key names for which the store recently answered "not found", each remembered for a fixed time, so
 * a caller looping on a made-up key or version costs one store read per name per period.
 */
final class RecentMisses {
  /**
   * Above this many names, expired ones are dropped, and if that is not enough all are: forgetting
   * costs only store reads, while a caller spraying names must not grow the map without bound.
   */
  static final int MAX_NAMES = 10_000;

  private final Clock clock;
  private final long periodMillis;
  private final ConcurrentMap<String, Long> missedAt = new ConcurrentHashMap<>();

  RecentMisses(Clock clock, Duration period) {
    this.clock = clock;
    this.periodMillis = period.toMillis();
  }

  /** Whether the store said "not found" for {@code name} within the period. */
  boolean isRecent(String name) {
    Long at = missedAt.get(name);
    return at != null && isFresh(at, clock.millis());
  }

  /** Remembers that the store just said "not found" for {@code name}. */
  void remember(String name) {
    long now = clock.millis();
    if (missedAt.size() >= MAX_NAMES) {
      missedAt.values().removeIf(at -> !isFresh(at, now));
      if (missedAt.size() >= MAX_NAMES) {
        missedAt.clear();
      }
    }
    missedAt.put(name, now);
  }

  /** Forgets {@code name}: the store has just shown it, or it was just written. */
  void forget(String name) {
    missedAt.remove(name);
  }

  void clear() {
    missedAt.clear();
  }

  /** A clock set back makes every earlier miss stale rather than fresh for longer. */
  private boolean isFresh(long at, long now) {
    return now >= at && now - at < periodMillis;
  }
}

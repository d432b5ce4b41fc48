package io.cipherd.server.subjectkeys;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.failsafe.RateLimiter;
import java.time.Duration;

/**
 * Bounds how fast each caller makes new subject keys (a row in the subject store each, for good): a
 * bursty Failsafe rate limiter per caller identity, {@code rate} per second over windows of ten
 * seconds (so a burst of ten seconds' worth), kept in a bounded Caffeine map of recent callers.
 */
final class SubjectCreationLimiter {
  private static final Duration WINDOW = Duration.ofSeconds(10);

  private final int rate;
  private final Cache<String, RateLimiter<Object>> callers;

  /** {@code rate} new subjects per second per caller; 0 for no limit. */
  SubjectCreationLimiter(int rate) {
    this.rate = rate;
    this.callers =
        Caffeine.newBuilder()
            .maximumSize(100_000)
            .expireAfterAccess(WINDOW.multipliedBy(2))
            .build();
  }

  /** Whether {@code caller} may create one more subject now; takes the permit if so. */
  boolean tryCreate(String caller) {
    if (rate == 0) {
      return true;
    }
    RateLimiter<Object> limiter =
        callers.get(
            caller == null ? "" : caller,
            c -> RateLimiter.burstyBuilder((long) rate * WINDOW.toSeconds(), WINDOW).build());
    return limiter.tryAcquirePermit();
  }

  int rate() {
    return rate;
  }
}

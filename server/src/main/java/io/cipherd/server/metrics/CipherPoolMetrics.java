package io.cipherd.server.metrics;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.pool.CipherPools;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.TimeUnit;

/**
 * Gauges and counters read from the per-mode cipher pools at scrape time, so the crypto path pays
 * nothing for them. The pools collect no detailed statistics (see {@link CipherPools}), so
 * commons-pool2's own mean and max borrow wait are always zero; the borrow wait here is the pools'
 * own nanosecond sum.
 */
public final class CipherPoolMetrics {
  private CipherPoolMetrics() {}

  public static void bind(CipherPools pools, MeterRegistry registry) {
    for (CipherMode mode : CipherMode.pooled()) {
      var pool = pools.pool(mode);
      Tags tags = Tags.of("mode", mode.headerName());
      Gauge.builder("cipherd.cipher.pool.active", pool, p -> p.getNumActive())
          .description("Ciphers borrowed right now")
          .tags(tags)
          .register(registry);
      Gauge.builder("cipherd.cipher.pool.idle", pool, p -> p.getNumIdle())
          .description("Ciphers ready in the pool")
          .tags(tags)
          .register(registry);
      Gauge.builder("cipherd.cipher.pool.waiters", pool, p -> p.getNumWaiters())
          .description("Threads waiting for a cipher because the pool is at its maximum")
          .tags(tags)
          .register(registry);
      Gauge.builder("cipherd.cipher.pool.max", pool, p -> p.getMaxTotal())
          .description("Most ciphers the pool holds")
          .tags(tags)
          .register(registry);
      FunctionCounter.builder("cipherd.cipher.pool.borrows", pool, p -> p.getBorrowedCount())
          .description("Ciphers borrowed")
          .tags(tags)
          .register(registry);
      FunctionCounter.builder("cipherd.cipher.pool.creations", pool, p -> p.getCreatedCount())
          .description("Ciphers created (a borrow that found the pool empty)")
          .tags(tags)
          .register(registry);
      FunctionCounter.builder(
              "cipherd.cipher.pool.borrow.wait",
              pools,
              p -> p.borrowWaitNanos(mode) / (double) TimeUnit.SECONDS.toNanos(1))
          .description(
              "Total time spent borrowing ciphers, including waits for a free one; "
                  + "divide by borrows for the mean")
          .baseUnit("seconds")
          .tags(tags)
          .register(registry);
      FunctionCounter.builder("cipherd.cipher.pool.exhausted", pools, p -> p.exhaustedCount(mode))
          .description("Borrows that gave up after the configured wait (RESOURCE_EXHAUSTED)")
          .tags(tags)
          .register(registry);
    }
  }
}

package io.cipherd.server.metrics;

import io.cipherd.server.keycache.KeyCache;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The key ring's cache counters, read at scrape time. */
public final class KeyCacheMetrics {
  private KeyCacheMetrics() {}

  public static void bind(KeyCache keys, MeterRegistry registry) {
    FunctionCounter.builder("cipherd.key.cache.requests", keys, KeyCache::cacheHits)
        .description("Key lookups by result: hit (from memory) or miss (read from the key store)")
        .tag("result", "hit")
        .register(registry);
    FunctionCounter.builder("cipherd.key.cache.requests", keys, KeyCache::cacheMisses)
        .description("Key lookups by result: hit (from memory) or miss (read from the key store)")
        .tag("result", "miss")
        .register(registry);
    Gauge.builder("cipherd.key.cache.size", keys, KeyCache::cacheSize)
        .description("Keys whose metadata is cached")
        .register(registry);
  }
}

package io.cipherd.server.metrics;

import io.cipherd.server.keys.KeyRing;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/** The key ring's cache counters, read at scrape time. */
public final class KeyCacheMetrics {
  private KeyCacheMetrics() {}

  public static void bind(KeyRing keyRing, MeterRegistry registry) {
    FunctionCounter.builder("cipherd.key.cache.requests", keyRing, KeyRing::cacheHits)
        .description("Key lookups by result: hit (from memory) or miss (read from the key store)")
        .tag("result", "hit").register(registry);
    FunctionCounter.builder("cipherd.key.cache.requests", keyRing, KeyRing::cacheMisses)
        .description("Key lookups by result: hit (from memory) or miss (read from the key store)")
        .tag("result", "miss").register(registry);
    Gauge.builder("cipherd.key.cache.size", keyRing, KeyRing::cacheSize)
        .description("Keys whose metadata is cached").register(registry);
  }
}

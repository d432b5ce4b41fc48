package io.cipherd.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.BooleanSupplier;

/**
 * {@code cipherd_keystore_reachable}: 1 while the key store answered its last probe, 0 after a
 * probe failed. A shared store (Vault) is probed every refresh interval whether or not calls come
 * in, so an outage shows on an idle server too; the embedded store is never probed and reads 1.
 */
public final class KeyStoreHealthMetrics {
  private KeyStoreHealthMetrics() {}

  public static void bind(BooleanSupplier reachable, MeterRegistry registry) {
    // Micrometer holds a gauge's state weakly; nothing else holds this supplier, so the gauge must.
    Gauge.builder("cipherd.keystore.reachable", reachable, r -> r.getAsBoolean() ? 1 : 0)
        .description(
            "1 while the key store answered its last probe (every --vault-refresh-interval), else 0")
        .strongReference(true)
        .register(registry);
  }
}

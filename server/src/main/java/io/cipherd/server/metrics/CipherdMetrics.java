package io.cipherd.server.metrics;

import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The server's one Prometheus registry, with the JVM's own metrics bound, and the choice of whether
 * key names may become label values.
 */
public final class CipherdMetrics implements AutoCloseable {
  /** The {@code key} label of every series when key names are not enabled. */
  public static final String ALL_KEYS = "_all";

  private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final boolean keyNames;

  /** {@code keyNames}: label series with key names; each key then adds series, so only for a bounded set of keys. */
  public CipherdMetrics(boolean keyNames) {
    this.keyNames = keyNames;
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
  }

  public PrometheusMeterRegistry registry() {
    return registry;
  }

  public boolean keyNames() {
    return keyNames;
  }

  /** Every metric in the Prometheus text format. */
  public String scrape() {
    return registry.scrape();
  }

  @Override
  public void close() {
    // The GC binder holds JMX notification listeners; without this each closed server would leak one.
    gc.close();
    registry.close();
  }
}

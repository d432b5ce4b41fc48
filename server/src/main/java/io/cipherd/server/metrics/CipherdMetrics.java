package io.cipherd.server.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.expositionformats.ExpositionFormats;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.tracer.common.SpanContext;
import java.util.concurrent.TimeUnit;

/**
 * The server's one Prometheus registry, with the JVM's own metrics bound, and the choice of whether
 * key names may become label values.
 */
public final class CipherdMetrics implements AutoCloseable {
  /** The {@code key} label of every series when key names are not enabled. */
  public static final String ALL_KEYS = "_all";

  /** The gRPC call timer of Micrometer's interceptor. */
  static final String CALL_TIMER = "grpc.server.processing.duration";

  /**
   * Latency buckets for the call timer, so dashboards and alerts compute percentiles across
   * replicas with {@code histogram_quantile}: 15 fixed bounds from 250 µs to 10 s (Micrometer's own
   * percentile histogram would add some 70 buckets to each method and status).
   */
  private static final double[] CALL_LATENCY_BUCKETS_SECONDS = {
    0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private static final MeterFilter CALL_LATENCY_HISTOGRAM =
      new MeterFilter() {
        @Override
        public DistributionStatisticConfig configure(
            Meter.Id id, DistributionStatisticConfig config) {
          if (!id.getName().equals(CALL_TIMER)) {
            return config;
          }
          double[] nanos = new double[CALL_LATENCY_BUCKETS_SECONDS.length];
          for (int i = 0; i < nanos.length; i++) {
            nanos[i] = CALL_LATENCY_BUCKETS_SECONDS[i] * TimeUnit.SECONDS.toNanos(1);
          }
          return DistributionStatisticConfig.builder()
              .percentilesHistogram(false)
              .serviceLevelObjectives(nanos)
              .build()
              .merge(config);
        }
      };

  private static final ExpositionFormats FORMATS = ExpositionFormats.init();
  private static final String OPENMETRICS = "application/openmetrics-text";

  private final PrometheusMeterRegistry registry;
  private final JvmGcMetrics gc = new JvmGcMetrics();
  private final boolean keyNames;

  /**
   * {@code keyNames}: label series with key names; each key then adds series, so only for a bounded
   * set of keys.
   */
  public CipherdMetrics(boolean keyNames) {
    this(keyNames, null);
  }

  /**
   * As {@link #CipherdMetrics(boolean)}, with exemplars: the histograms' buckets and counters name
   * the trace of a call they counted, from {@code spans} (the tracing's view of the current span),
   * in the OpenMetrics format; null: none.
   */
  public CipherdMetrics(boolean keyNames, SpanContext spans) {
    this.registry =
        new PrometheusMeterRegistry(
            PrometheusConfig.DEFAULT, new PrometheusRegistry(), Clock.SYSTEM, spans);
    this.keyNames = keyNames;
    registry.config().meterFilter(CALL_LATENCY_HISTOGRAM);
    new JvmMemoryMetrics().bindTo(registry);
    gc.bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    // At zero while the audit trail is off, so its panel and alert read 0 rather than no data.
    new AuditMetrics(registry);
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

  /**
   * The content type of the format that suits an HTTP {@code Accept} header (null: none sent):
   * OpenMetrics, which carries exemplars, when it asks for it, else the Prometheus text format
   * (also for a scraper that prefers the protobuf format, which this text endpoint does not serve).
   */
  public String contentType(String accept) {
    String preferred = FORMATS.findWriter(accept).getContentType();
    return preferred.startsWith(OPENMETRICS)
        ? preferred
        : FORMATS.getPrometheusTextFormatWriter().getContentType();
  }

  /** Every metric in the format of {@code contentType}, one {@link #contentType} returned. */
  public String scrape(String contentType) {
    return registry.scrape(contentType);
  }

  @Override
  public void close() {
    // The GC binder holds JMX notification listeners; without this each closed server would leak
    // one.
    gc.close();
    registry.close();
  }
}

package io.cipherd.server.tracing;

import io.cipherd.server.engine.CryptoObserver;
import io.cipherd.server.keys.KeyStore;
import io.grpc.ServerBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.grpc.opentelemetry.InternalGrpcOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.prometheus.metrics.tracer.common.SpanContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * cipherd's traces: off (the default: no SDK, no interceptor, no observer, nothing per call), or an
 * OpenTelemetry SDK configured by the SDK's own autoconfiguration (so every standard {@code OTEL_*}
 * variable applies: exporter protocol, headers, certificates, resource attributes, batching) with
 * the endpoint, sampling ratio, service name and sampler of {@link TracingConfig} over them.
 * grpc-java's OpenTelemetry module starts a server span per call, its parent the caller's W3C
 * {@code traceparent}; cipherd adds its attributes ({@link CallSpan}), child spans for key-store
 * calls ({@link TracedKeyStore}) and exemplars on its latency histogram ({@link #exemplars}).
 */
public final class Tracing implements AutoCloseable {
  private static final Tracing OFF = new Tracing(null, null);

  private final OpenTelemetrySdk sdk;
  private final CallSampler sampler;

  private Tracing(OpenTelemetrySdk sdk, CallSampler sampler) {
    this.sdk = sdk;
    this.sampler = sampler;
  }

  /** No tracing. */
  public static Tracing off() {
    return OFF;
  }

  /** Tracing as {@code config} says: off when it has no endpoint. */
  public static Tracing start(TracingConfig config) {
    if (!config.enabled()) {
      return OFF;
    }
    Map<String, String> flags = new HashMap<>();
    flags.put("otel.traces.exporter", "otlp");
    flags.put("otel.exporter.otlp.endpoint", config.endpoint().toString());
    flags.put("otel.service.name", config.serviceName());
    // Traces only: cipherd's metrics are Prometheus's, and its logs go to standard output.
    flags.put("otel.metrics.exporter", "none");
    flags.put("otel.logs.exporter", "none");
    OpenTelemetrySdk sdk =
        AutoConfiguredOpenTelemetrySdk.builder()
            // The command line wins over OTEL_*, as over cipherd's own variables.
            .addPropertiesCustomizer(properties -> flags)
            // Defaults that OTEL_* variables override. W3C trace context alone: a caller's baggage
            // is not cipherd's to carry on to its key store. No span events: grpc-java's module
            // adds
            // a message event per message with its size alone, which cipherd.items and the RPC say
            // already, and every event is built, kept and exported (docs/tracing.md, Cost).
            .addPropertiesSupplier(
                () ->
                    Map.of("otel.propagators", "tracecontext", "otel.span.event.count.limit", "0"))
            // Whether a call is traced is decided before the SDK sees it (CallSampler).
            .addSamplerCustomizer(
                (sampler, properties) -> new CallSpanSampler(config.trustParentSampling()))
            .disableShutdownHook()
            .build()
            .getOpenTelemetrySdk();
    return new Tracing(sdk, new CallSampler(config.samplingRatio(), config.trustParentSampling()));
  }

  /**
   * For tests: tracing through {@code sdk} (whose sampler decides alone: every call reaches it),
   * closed with this.
   */
  public static Tracing with(OpenTelemetrySdk sdk) {
    return new Tracing(sdk, new CallSampler(1.0, false));
  }

  /** Whether calls are traced. */
  public boolean enabled() {
    return sdk != null;
  }

  /** The OpenTelemetry this traces through; the no-op one when off. */
  public OpenTelemetry openTelemetry() {
    return sdk != null ? sdk : OpenTelemetry.noop();
  }

  /**
   * Adds the interceptor that puts cipherd's attributes on each traced call's span; nothing when
   * off. It must run inside the access-log interceptor (be added before it), whose view of each
   * request it reads.
   */
  public <T extends ServerBuilder<T>> T intercept(T builder) {
    return sdk == null ? builder : builder.intercept(new CallSpanInterceptor());
  }

  /**
   * Adds the server span to {@code builder}'s sampled calls ({@link CallSampler}), its parent the
   * caller's {@code traceparent}; nothing when off. Call it after every interceptor is added: the
   * module's interceptor, added last, runs first, so the span is current in all of them (the audit
   * reads its trace id).
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    if (sdk == null) {
      return builder;
    }
    GrpcOpenTelemetry.Builder module = GrpcOpenTelemetry.newBuilder().sdk(sdk).disableAllMetrics();
    // Tracing is experimental in grpc-java 1.83 (gRFC A72), behind this switch.
    InternalGrpcOpenTelemetry.enableTracing(module, true);
    boolean messageEvents = sdk.getSdkTracerProvider().getSpanLimits().getMaxNumberOfEvents() > 0;
    return SampledCalls.install(module.build(), sampler, messageEvents, builder);
  }

  /** Puts the key version and mode each traced call used on its span; nothing when off. */
  public CryptoObserver observer() {
    return sdk == null ? CryptoObserver.NONE : new SpanObserver();
  }

  /**
   * {@code store}, whose calls inside a traced call are child spans of it; {@code store} itself
   * when off. {@code kind} names the store in those spans.
   */
  public KeyStore keyStore(KeyStore store, String kind) {
    return sdk == null
        ? store
        : new TracedKeyStore(store, sdk.getTracer("io.cipherd.server"), kind);
  }

  /** Where Prometheus exemplars find the current call's trace; null when off (no exemplars). */
  public SpanContext exemplars() {
    return sdk == null ? null : new SpanExemplars();
  }

  /** Sends the spans still buffered, for at most 10 seconds, and stops. */
  @Override
  public void close() {
    if (sdk != null) {
      sdk.shutdown().join(10, TimeUnit.SECONDS);
    }
  }
}

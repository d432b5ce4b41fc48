package io.cipherd.client;

import io.grpc.ManagedChannelBuilder;
import io.grpc.opentelemetry.GrpcOpenTelemetry;
import io.grpc.opentelemetry.InternalGrpcOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;

/**
 * A channel's calls traced through grpc-java's OpenTelemetry module: a client span per call (and
 * one per attempt under it), a child of the caller's current span, sent to cipherd as a W3C {@code
 * traceparent}. Only the W3C trace context is sent, whatever the caller's propagators are: cipherd
 * reads nothing else, and a caller's baggage has no business at a key service. The module's gRPC
 * metrics stay off (the caller's own instrumentation may record them).
 */
final class Tracing {
  private static final ContextPropagators W3C =
      ContextPropagators.create(W3CTraceContextPropagator.getInstance());

  private Tracing() {}

  static void configure(ManagedChannelBuilder<?> channel, OpenTelemetry openTelemetry) {
    OpenTelemetry tracesOnly =
        new OpenTelemetry() {
          @Override
          public TracerProvider getTracerProvider() {
            return openTelemetry.getTracerProvider();
          }

          @Override
          public MeterProvider getMeterProvider() {
            return MeterProvider.noop();
          }

          @Override
          public ContextPropagators getPropagators() {
            return W3C;
          }
        };
    GrpcOpenTelemetry.Builder module =
        GrpcOpenTelemetry.newBuilder().sdk(tracesOnly).disableAllMetrics();
    // Tracing is experimental in grpc-java 1.83 (gRFC A72), behind this switch.
    InternalGrpcOpenTelemetry.enableTracing(module, true);
    module.build().configureChannelBuilder(channel);
  }
}

package io.cipherd.server.tracing;

import io.grpc.Metadata;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Whether a call is traced, decided before anything is spent on tracing it. With {@code
 * trustParentSampling} off (the default) cipherd's own ratio decides, whatever the caller's {@code
 * traceparent} says, so a caller can neither make cipherd export a span per call by sending {@code
 * -01} nor, by choosing trace ids, steer the decision: it is a random draw, not a function of the
 * trace id. With it on, a call with a valid {@code traceparent} follows its sampled flag, and one
 * without follows the ratio.
 */
final class CallSampler {
  private static final TextMapGetter<Metadata> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Metadata headers) {
          return List.copyOf(headers.keys());
        }

        @Override
        public String get(Metadata headers, String key) {
          return headers == null
              ? null
              : headers.get(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER));
        }
      };

  private final double ratio;
  private final boolean trustParentSampling;

  CallSampler(double ratio, boolean trustParentSampling) {
    this.ratio = ratio;
    this.trustParentSampling = trustParentSampling;
  }

  /** Whether the call with these request headers is traced. */
  boolean sampled(Metadata headers) {
    if (trustParentSampling) {
      SpanContext parent =
          Span.fromContext(
                  W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS))
              .getSpanContext();
      if (parent.isValid()) {
        return parent.isSampled();
      }
    }
    return ratio >= 1.0 || (ratio > 0 && ThreadLocalRandom.current().nextDouble() < ratio);
  }
}

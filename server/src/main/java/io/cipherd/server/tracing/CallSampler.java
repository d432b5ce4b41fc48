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
  /**
   * The W3C header this reads, made once: a key made per call (its name validated and lowercased)
   * cost every call, traced or not, more than the rest of this decision.
   */
  private static final Metadata.Key<String> TRACEPARENT =
      Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);

  private static final Metadata.Key<String> TRACESTATE =
      Metadata.Key.of("tracestate", Metadata.ASCII_STRING_MARSHALLER);

  private static final TextMapGetter<Metadata> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Metadata headers) {
          return List.copyOf(headers.keys());
        }

        @Override
        public String get(Metadata headers, String key) {
          if (headers == null) {
            return null;
          }
          return switch (key) {
            case "traceparent" -> headers.get(TRACEPARENT);
            case "tracestate" -> headers.get(TRACESTATE);
            default -> headers.get(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER));
          };
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
    if (trustParentSampling && headers.containsKey(TRACEPARENT)) {
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

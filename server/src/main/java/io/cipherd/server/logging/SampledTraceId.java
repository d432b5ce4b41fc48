package io.cipherd.server.logging;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/**
 * The trace id a call's access line and audit record carry: that of the call's server span, current
 * in cipherd's interceptors when tracing is on (grpc-java's OpenTelemetry interceptor runs outside
 * them), if the span is sampled, since a span that is not exported leads nowhere. Null otherwise,
 * and always with tracing off (the no-op span).
 */
public final class SampledTraceId {
  private SampledTraceId() {}

  /** The current call's trace id if its span is sampled; null otherwise. */
  public static String current() {
    SpanContext span = Span.current().getSpanContext();
    return span.isSampled() ? span.getTraceId() : null;
  }
}

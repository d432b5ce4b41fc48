package io.cipherd.server.tracing;

import io.opentelemetry.api.trace.Span;
import io.prometheus.metrics.tracer.common.SpanContext;

/**
 * The Prometheus client's view of the span a metric is recorded in, for exemplars: the traced call
 * served on this thread ({@link CallSpan}, which the blocking pool carries in the gRPC Context),
 * else OpenTelemetry's current span. A latency bucket's exemplar then names the trace of a call
 * that fell in it.
 */
final class SpanExemplars implements SpanContext {
  @Override
  public String getCurrentTraceId() {
    Span span = span();
    return span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : null;
  }

  @Override
  public String getCurrentSpanId() {
    Span span = span();
    return span.getSpanContext().isValid() ? span.getSpanContext().getSpanId() : null;
  }

  @Override
  public boolean isCurrentSpanSampled() {
    return span().getSpanContext().isSampled();
  }

  @Override
  public void markCurrentSpanAsExemplar() {
    span().setAttribute(EXEMPLAR_ATTRIBUTE_NAME, EXEMPLAR_ATTRIBUTE_VALUE);
  }

  private static Span span() {
    CallSpan call = CallSpan.current();
    Span span = call != null ? call.span() : null;
    return span != null ? span : Span.current();
  }
}

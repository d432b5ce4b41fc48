package io.cipherd.server.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The sampler of {@code --otel-trust-parent-sampling=false}: cipherd's own ratio decides whether a
 * call is traced, whatever its caller's {@code traceparent} says, so a caller cannot make cipherd
 * export a span per call by sending {@code -01}, nor (by choosing trace ids) steer the decision: it
 * is drawn at random, not from the trace id as the SDK's ratio sampler does. A traced call keeps
 * the caller's trace id and parent span, for correlation, but not the caller's {@code tracestate}.
 * Spans inside a call (key-store reads) follow their local parent, the call's span.
 */
final class OwnRatioSampler implements Sampler {
  private static final SamplingResult SAMPLE =
      new WithoutCallerState(SamplingDecision.RECORD_AND_SAMPLE);
  private static final SamplingResult DROP = new WithoutCallerState(SamplingDecision.DROP);

  private final double ratio;

  OwnRatioSampler(double ratio) {
    this.ratio = ratio;
  }

  @Override
  public SamplingResult shouldSample(
      Context parentContext,
      String traceId,
      String name,
      SpanKind spanKind,
      Attributes attributes,
      List<LinkData> parentLinks) {
    SpanContext parent = Span.fromContext(parentContext).getSpanContext();
    if (parent.isValid() && !parent.isRemote()) {
      return parent.isSampled() ? SamplingResult.recordAndSample() : SamplingResult.drop();
    }
    return ThreadLocalRandom.current().nextDouble() < ratio ? SAMPLE : DROP;
  }

  @Override
  public String getDescription() {
    return "OwnRatioSampler{" + ratio + "}";
  }

  /** A decision on a call, which drops the caller's tracestate. */
  private record WithoutCallerState(SamplingDecision decision) implements SamplingResult {
    @Override
    public SamplingDecision getDecision() {
      return decision;
    }

    @Override
    public Attributes getAttributes() {
      return Attributes.empty();
    }

    @Override
    public TraceState getUpdatedTraceState(TraceState parentTraceState) {
      return TraceState.getDefault();
    }
  }
}

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

/**
 * The SDK's sampler once {@link CallSampler} has decided: a call's span reaches the SDK only if the
 * call was sampled, so a span without a local parent (a call's, whose parent is the caller's span
 * or none) is always recorded; a span inside a call (a key-store read) follows its parent, the
 * call's span. Nothing else starts spans: {@link TracedKeyStore} makes none outside a traced call.
 * Unless the caller's sampling is trusted, a traced call keeps the caller's trace id and parent
 * span, for correlation, but not the caller's {@code tracestate}.
 */
final class CallSpanSampler implements Sampler {
  private static final SamplingResult SAMPLE_WITHOUT_CALLER_STATE =
      new WithoutCallerState(SamplingDecision.RECORD_AND_SAMPLE);

  private final boolean keepCallerState;

  CallSpanSampler(boolean keepCallerState) {
    this.keepCallerState = keepCallerState;
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
    if (!parent.isValid() || parent.isRemote()) {
      // A call's span (grpc-java's module names no span kind): its parent is the caller's, or none.
      return keepCallerState ? SamplingResult.recordAndSample() : SAMPLE_WITHOUT_CALLER_STATE;
    }
    return parent.isSampled() ? SamplingResult.recordAndSample() : SamplingResult.drop();
  }

  @Override
  public String getDescription() {
    return "CallSpanSampler{keepCallerState=" + keepCallerState + "}";
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

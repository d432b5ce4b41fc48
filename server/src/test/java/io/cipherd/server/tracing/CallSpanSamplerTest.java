package io.cipherd.server.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * The SDK's sampler behind {@link CallSampler}: a call's span is recorded (it reached the SDK only
 * because the call was sampled), without the caller's tracestate unless trusted; spans inside a
 * call follow it; nothing else is traced.
 */
class CallSpanSamplerTest {
  private static final TraceState CALLER_STATE =
      TraceState.builder().put("vendor", "caller-chosen-value").build();

  @Test
  void aCallsSpan_isRecorded_whatTheCallersFlagSays_withoutTheCallersTraceState() {
    for (boolean callerSampled : new boolean[] {true, false}) {
      SamplingResult result =
          new CallSpanSampler(false)
              .shouldSample(
                  remoteParent(randomTraceId(), callerSampled),
                  randomTraceId(),
                  "Recv.x",
                  SpanKind.SERVER,
                  Attributes.empty(),
                  List.of());

      assertThat(result.getDecision()).isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
      assertThat(result.getUpdatedTraceState(CALLER_STATE).isEmpty()).isTrue();
    }
  }

  @Test
  void aTrustedCallersTraceState_isKept() {
    SamplingResult result =
        new CallSpanSampler(true)
            .shouldSample(
                remoteParent(randomTraceId(), true),
                randomTraceId(),
                "Recv.x",
                SpanKind.SERVER,
                Attributes.empty(),
                List.of());

    assertThat(result.getUpdatedTraceState(CALLER_STATE)).isEqualTo(CALLER_STATE);
  }

  @Test
  void spansInsideACall_followTheCallsSpan() {
    CallSpanSampler sampler = new CallSpanSampler(false);
    String traceId = randomTraceId();

    assertThat(decision(sampler, localParent(traceId, true), SpanKind.INTERNAL))
        .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
    assertThat(decision(sampler, localParent(traceId, false), SpanKind.INTERNAL))
        .isEqualTo(SamplingDecision.DROP);
    assertThat(decision(sampler, Context.root(), SpanKind.INTERNAL))
        .as("a span without a parent is a call's: the call was sampled to get here")
        .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
  }

  private static SamplingDecision decision(CallSpanSampler sampler, Context parent, SpanKind kind) {
    return sampler
        .shouldSample(
            parent, randomTraceId(), "keystore.read_key", kind, Attributes.empty(), List.of())
        .getDecision();
  }

  private static Context remoteParent(String traceId, boolean sampled) {
    return Context.root()
        .with(
            Span.wrap(
                SpanContext.createFromRemoteParent(
                    traceId,
                    randomSpanId(),
                    sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(),
                    CALLER_STATE)));
  }

  private static Context localParent(String traceId, boolean sampled) {
    return Context.root()
        .with(
            Span.wrap(
                SpanContext.create(
                    traceId,
                    randomSpanId(),
                    sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(),
                    TraceState.getDefault())));
  }

  private static String randomTraceId() {
    byte[] id = new byte[16];
    ThreadLocalRandom.current().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }

  private static String randomSpanId() {
    byte[] id = new byte[8];
    ThreadLocalRandom.current().nextBytes(id);
    return HexFormat.of().formatHex(id);
  }
}

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
 * {@code --otel-trust-parent-sampling=false}: the caller's sampled flag and trace id decide
 * nothing.
 */
class OwnRatioSamplerTest {
  private static final TraceState CALLER_STATE =
      TraceState.builder().put("vendor", "caller-chosen-value").build();

  @Test
  void aCallersSampledParent_isNotFollowed_atRatioZero() {
    SamplingResult result =
        new OwnRatioSampler(0)
            .shouldSample(
                remoteParent(randomTraceId(), true),
                randomTraceId(),
                "Recv.x",
                SpanKind.SERVER,
                Attributes.empty(),
                List.of());

    assertThat(result.getDecision()).isEqualTo(SamplingDecision.DROP);
  }

  @Test
  void aTracedCall_dropsTheCallersTraceState() {
    SamplingResult result =
        new OwnRatioSampler(1)
            .shouldSample(
                remoteParent(randomTraceId(), false),
                randomTraceId(),
                "Recv.x",
                SpanKind.SERVER,
                Attributes.empty(),
                List.of());

    assertThat(result.getDecision()).isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
    assertThat(result.getUpdatedTraceState(CALLER_STATE).isEmpty()).isTrue();
  }

  @Test
  void sampledShare_isTheRatio_evenForTraceIdsChosenToPassTheSdksRatioTest() {
    // The SDK's ratio sampler samples a trace id whose lower 8 bytes are small: these always pass
    // it.
    OwnRatioSampler sampler = new OwnRatioSampler(0.1);
    int sampled = 0;
    int calls = 20_000;
    for (int i = 0; i < calls; i++) {
      String chosen = String.format("%016x%016x", ThreadLocalRandom.current().nextLong(), i);
      SamplingResult result =
          sampler.shouldSample(
              remoteParent(chosen, true),
              chosen,
              "Recv.x",
              SpanKind.SERVER,
              Attributes.empty(),
              List.of());
      if (result.getDecision() == SamplingDecision.RECORD_AND_SAMPLE) {
        sampled++;
      }
    }
    // 0.1 ± 5 standard deviations (0.0021 each).
    assertThat(sampled / (double) calls).isBetween(0.0894, 0.1106);
  }

  @Test
  void spansInsideACall_followTheCallsSpan() {
    OwnRatioSampler sampler = new OwnRatioSampler(0);
    String traceId = randomTraceId();
    Context sampledCall = localParent(traceId, true);
    Context droppedCall = localParent(traceId, false);

    assertThat(
            sampler
                .shouldSample(
                    sampledCall,
                    traceId,
                    "keystore.read_key",
                    SpanKind.INTERNAL,
                    Attributes.empty(),
                    List.of())
                .getDecision())
        .isEqualTo(SamplingDecision.RECORD_AND_SAMPLE);
    assertThat(
            sampler
                .shouldSample(
                    droppedCall,
                    traceId,
                    "keystore.read_key",
                    SpanKind.INTERNAL,
                    Attributes.empty(),
                    List.of())
                .getDecision())
        .isEqualTo(SamplingDecision.DROP);
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

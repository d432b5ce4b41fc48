package io.cipherd.server.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Metadata;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/** Whether a call is traced: cipherd's own draw, or a trusted caller's sampled flag. */
class CallSamplerTest {
  private static final Metadata.Key<String> TRACEPARENT =
      Metadata.Key.of("traceparent", Metadata.ASCII_STRING_MARSHALLER);

  @Test
  void aCallersSampledFlag_decidesNothing_unlessTrusted() {
    CallSampler own = new CallSampler(0, false);
    for (int i = 0; i < 1000; i++) {
      assertThat(own.sampled(headers(randomTraceId(), "01"))).isFalse();
    }
    assertThat(new CallSampler(1, false).sampled(headers(randomTraceId(), "00"))).isTrue();
  }

  @Test
  void aTrustedCallersFlag_decides_andWithoutAValidParentTheRatioDoes() {
    CallSampler trusting = new CallSampler(0, true);

    assertThat(trusting.sampled(headers(randomTraceId(), "01"))).isTrue();
    assertThat(trusting.sampled(headers(randomTraceId(), "00"))).isFalse();
    assertThat(new CallSampler(1, true).sampled(headers(randomTraceId(), "00"))).isFalse();
    assertThat(trusting.sampled(new Metadata())).as("no traceparent: the ratio, 0").isFalse();
    assertThat(trusting.sampled(headers("0".repeat(32), "01")))
        .as("an all-zero trace id is invalid: the ratio, 0")
        .isFalse();
    Metadata garbled = new Metadata();
    garbled.put(TRACEPARENT, "00-not-a-trace-01");
    assertThat(trusting.sampled(garbled)).isFalse();
    assertThat(new CallSampler(1, true).sampled(garbled)).isTrue();
  }

  @Test
  void sampledShare_isTheRatio_evenForTraceIdsChosenToPassTheSdksRatioTest() {
    // The SDK's ratio sampler samples a trace id whose lower 8 bytes are small: these always pass
    // it, and they decide nothing here.
    CallSampler sampler = new CallSampler(0.1, false);
    int sampled = 0;
    int calls = 20_000;
    for (int i = 0; i < calls; i++) {
      String chosen = String.format("%016x%016x", ThreadLocalRandom.current().nextLong(), i);
      if (sampler.sampled(headers(chosen, "01"))) {
        sampled++;
      }
    }
    // 0.1 ± 5 standard deviations (0.0021 each).
    assertThat(sampled / (double) calls).isBetween(0.0894, 0.1106);
  }

  private static Metadata headers(String traceId, String flags) {
    Metadata headers = new Metadata();
    headers.put(TRACEPARENT, "00-" + traceId + "-" + "1f".repeat(8) + "-" + flags);
    return headers;
  }

  private static String randomTraceId() {
    return String.format(
        "%016x%016x",
        ThreadLocalRandom.current().nextLong(), ThreadLocalRandom.current().nextLong() | 1);
  }
}

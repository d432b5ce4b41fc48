package io.cipherd.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CipherdMetricsTest {
  private final CipherdMetrics metrics = new CipherdMetrics(false);

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "text/plain",
        "*/*",
        // Prometheus with native histograms asks for protobuf first; this endpoint serves text.
        "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.8,text/plain;version=0.0.4;q=0.3"
      })
  void contentType_withoutOpenMetricsAsked_isThePrometheusText(String accept) {
    String type = metrics.contentType(accept);

    assertThat(type).startsWith("text/plain; version=0.0.4");
    assertThat(metrics.scrape(type)).contains("# TYPE jvm_threads_live_threads gauge");
  }

  @Test
  void contentType_whenOpenMetricsIsAsked_isOpenMetrics_endingInEof() {
    String type = metrics.contentType("application/openmetrics-text; version=1.0.0; charset=utf-8");

    assertThat(type).startsWith("application/openmetrics-text");
    assertThat(metrics.scrape(type)).endsWith("# EOF\n");
  }
}

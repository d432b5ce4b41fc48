package io.cipherd.server.tracing;

import java.net.URI;

/**
 * Whether cipherd traces its calls and where it sends the spans, validated on construction.
 *
 * @param endpoint the OTLP endpoint spans go to ({@code http://host:4317} for OTLP over gRPC, the
 *     SDK's default protocol); null: tracing off
 * @param samplingRatio the share of calls without a sampled caller's span that are traced, 0 to 1;
 *     a call whose caller sampled its own span is always traced (parent-based sampling)
 * @param serviceName the {@code service.name} of the spans' resource
 * @param trustParentSampling whether a caller's sampled {@code traceparent} makes a call traced
 *     (parent-based sampling); if not, {@code samplingRatio} alone decides every call, and a traced
 *     call still joins the caller's trace ({@link CallSampler})
 */
public record TracingConfig(
    URI endpoint, double samplingRatio, String serviceName, boolean trustParentSampling) {
  /** Parent-based sampling: a caller's sampled span is always followed. */
  public TracingConfig(URI endpoint, double samplingRatio, String serviceName) {
    this(endpoint, samplingRatio, serviceName, true);
  }

  public TracingConfig {
    if (!(samplingRatio >= 0 && samplingRatio <= 1)) {
      throw new IllegalArgumentException(
          "the sampling ratio must be between 0 and 1, got " + samplingRatio);
    }
    if (serviceName == null || serviceName.isBlank()) {
      throw new IllegalArgumentException("the tracing service name must not be empty");
    }
    if (endpoint != null
        && (endpoint.getHost() == null
            || !("http".equals(endpoint.getScheme()) || "https".equals(endpoint.getScheme())))) {
      throw new IllegalArgumentException(
          "the OTLP endpoint must be an http:// or https:// URL with a host, got " + endpoint);
    }
  }

  /** Whether calls are traced. */
  public boolean enabled() {
    return endpoint != null;
  }
}

package io.cipherd.server.cli;

import io.cipherd.server.tracing.TracingConfig;
import java.net.URI;
import java.net.URISyntaxException;
import picocli.CommandLine.Option;

/**
 * The {@code --otel-*} options; each has a CIPHERD_OTEL_* variable. Tracing is off unless an
 * endpoint is set; the standard OTEL_* variables tune the rest (protocol, headers, batching).
 */
public final class TracingOptions {
  @Option(
      names = "--otel-endpoint",
      defaultValue = "${env:CIPHERD_OTEL_ENDPOINT}",
      description =
          "Trace calls and send the spans over OTLP to this URL, e.g. http://127.0.0.1:4317 "
              + "(CIPHERD_OTEL_ENDPOINT; OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf for OTLP over "
              + "HTTP, port 4318). Off when not set.")
  String endpoint;

  @Option(
      names = "--otel-sampling-ratio",
      defaultValue = "${env:CIPHERD_OTEL_SAMPLING_RATIO:-1.0}",
      description =
          "Share of calls traced, 0 to 1, when the caller sent no sampled traceparent; a call "
              + "whose caller sampled its span is always traced (CIPHERD_OTEL_SAMPLING_RATIO). "
              + "Default: ${DEFAULT-VALUE}.")
  double samplingRatio;

  @Option(
      names = "--otel-service-name",
      defaultValue = "${env:CIPHERD_OTEL_SERVICE_NAME:-cipherd}",
      description =
          "service.name of the spans (CIPHERD_OTEL_SERVICE_NAME). Default: ${DEFAULT-VALUE}.")
  String serviceName;

  @Option(
      names = "--otel-trust-parent-sampling",
      arity = "1",
      defaultValue = "${env:CIPHERD_OTEL_TRUST_PARENT_SAMPLING:-true}",
      description =
          "Whether a caller's traceparent that says sampled makes cipherd trace the call (true: "
              + "parent-based sampling). false: --otel-sampling-ratio alone decides every call, "
              + "whatever the caller sent, and the caller's tracestate is dropped; a traced call "
              + "still joins the caller's trace. Set false when callers outside your trust "
              + "boundary reach cipherd (CIPHERD_OTEL_TRUST_PARENT_SAMPLING). "
              + "Default: ${DEFAULT-VALUE}.")
  boolean trustParentSampling;

  /** The validated tracing settings; without an endpoint, tracing is off. */
  public TracingConfig toConfig() {
    URI uri = null;
    if (endpoint != null && !endpoint.isBlank()) {
      try {
        uri = new URI(endpoint.strip());
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("--otel-endpoint is not a URL: " + e.getMessage());
      }
    }
    return new TracingConfig(uri, samplingRatio, serviceName, trustParentSampling);
  }
}

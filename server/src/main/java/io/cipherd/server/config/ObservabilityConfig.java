package io.cipherd.server.config;

import io.cipherd.server.logging.LogFormat;

/**
 * What cipherd tells its operators and where, validated on construction. Kept apart from {@link
 * ServerConfig} so the serving settings and these can change independently.
 *
 * @param httpPort port of the HTTP server for /metrics, /healthz and /readyz, on the gRPC host; 0
 *     picks a free one
 * @param logFormat text or JSON log lines
 * @param metricsKeyNames label crypto metrics with key names; each key adds series, so only for a
 *     bounded set of keys
 */
public record ObservabilityConfig(int httpPort, LogFormat logFormat, boolean metricsKeyNames) {
  /** The defaults: port 9464, text logs, no key names in metrics. */
  public static final ObservabilityConfig DEFAULT = new ObservabilityConfig(9464, LogFormat.TEXT, false);

  public ObservabilityConfig {
    if (httpPort < 0 || httpPort > 65535) {
      throw new IllegalArgumentException("http port must be between 0 and 65535, got " + httpPort);
    }
    if (logFormat == null) {
      throw new IllegalArgumentException("log format is required");
    }
  }
}

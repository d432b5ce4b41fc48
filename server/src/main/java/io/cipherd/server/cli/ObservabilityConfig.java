package io.cipherd.server.cli;

import io.cipherd.server.logging.LogFormat;
import java.time.Duration;

/**
 * What cipherd tells its operators and where, validated on construction. Kept apart from {@link
 * ServerConfig} so the serving settings and these can change independently.
 *
 * @param httpPort port of the HTTP server for /metrics, /healthz and /readyz, on the gRPC host; 0
 *     picks a free one
 * @param logFormat text or JSON log lines
 * @param metricsKeyNames label crypto metrics with key names; each key adds series, so only for a
 *     bounded set of keys
 * @param usageMergeInterval how often usage counts are merged through the key store (and due
 *     automatic rotations run): the lag of the counts other replicas see
 * @param httpLimits what one client of the HTTP port may hold and for how long
 */
public record ObservabilityConfig(
    int httpPort,
    LogFormat logFormat,
    boolean metricsKeyNames,
    Duration usageMergeInterval,
    OpsHttpLimits httpLimits) {
  public static final Duration DEFAULT_USAGE_MERGE_INTERVAL = Duration.ofSeconds(10);

  /**
   * The defaults: port 9464 with {@link OpsHttpLimits#DEFAULT}, text logs, no key names in metrics,
   * usage merged every 10 s.
   */
  public static final ObservabilityConfig DEFAULT =
      new ObservabilityConfig(9464, LogFormat.TEXT, /* metricsKeyNames= */ false);

  public ObservabilityConfig(int httpPort, LogFormat logFormat, boolean metricsKeyNames) {
    this(httpPort, logFormat, metricsKeyNames, DEFAULT_USAGE_MERGE_INTERVAL, OpsHttpLimits.DEFAULT);
  }

  public ObservabilityConfig {
    if (usageMergeInterval == null || usageMergeInterval.toMillis() < 100) {
      throw new IllegalArgumentException("usage merge interval must be at least 100 ms");
    }
    if (httpPort < 0 || httpPort > 65535) {
      throw new IllegalArgumentException("http port must be between 0 and 65535, got " + httpPort);
    }
    if (logFormat == null) {
      throw new IllegalArgumentException("log format is required");
    }
    if (httpLimits == null) {
      throw new IllegalArgumentException("HTTP limits are required");
    }
  }
}

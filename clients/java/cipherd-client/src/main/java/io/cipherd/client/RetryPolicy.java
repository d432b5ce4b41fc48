package io.cipherd.client;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * How calls are retried, by grpc-java itself through the channel's service config (gRFC A6): only
 * UNAVAILABLE, since every other failure would fail the same way again; {@code maxAttempts}
 * includes the first attempt, so 1 means never. Streams are retried only until their first answer,
 * as grpc-java does.
 */
public record RetryPolicy(
    int maxAttempts, Duration initialBackoff, Duration maxBackoff, double backoffMultiplier) {
  /** Four attempts, 0.1 s doubling up to 2 s: the other clients' default. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(4, Duration.ofMillis(100), Duration.ofSeconds(2), 2);

  /** One attempt: failures reach the caller at once. */
  public static final RetryPolicy NONE =
      new RetryPolicy(1, Duration.ofMillis(100), Duration.ZERO, 1);

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
  }

  /** The service config that applies this policy to every cipherd service. */
  Map<String, ?> serviceConfig() {
    if (maxAttempts < 2) {
      return Map.of();
    }
    Map<String, Object> retry =
        Map.of(
            "maxAttempts", (double) maxAttempts,
            "initialBackoff", seconds(initialBackoff),
            "maxBackoff", seconds(maxBackoff),
            "backoffMultiplier", backoffMultiplier,
            "retryableStatusCodes", List.of("UNAVAILABLE"));
    List<Map<String, String>> services =
        List.of(
            Map.of("service", "cipherd.v1.CryptoService"),
            Map.of("service", "cipherd.v1.KeyAdminService"),
            Map.of("service", "cipherd.v1.AuditService"));
    return Map.of("methodConfig", List.of(Map.of("name", services, "retryPolicy", retry)));
  }

  private static String seconds(Duration duration) {
    return duration.toNanos() / 1e9 + "s";
  }
}

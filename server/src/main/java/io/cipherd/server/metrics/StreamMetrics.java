package io.cipherd.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.function.ToIntBiFunction;
import java.util.function.ToLongBiFunction;

/**
 * Item streams open now and closed for idleness, read at scrape time so a stream pays nothing for
 * them, and the limits that bound streams and connections. The counts come through functions so
 * that this layer need not know the API's classes.
 */
public final class StreamMetrics {
  private StreamMetrics() {}

  /**
   * Binds the counts of {@code streams} (held strongly by the caller: meters keep only a weak
   * reference to it) for each of {@code methods}, and the idle timeout.
   */
  public static <S> void bind(
      MeterRegistry registry,
      S streams,
      List<String> methods,
      ToIntBiFunction<S, String> open,
      ToLongBiFunction<S, String> closedIdle,
      Duration idleTimeout) {
    for (String method : methods) {
      Gauge.builder("cipherd.streams.open", streams, s -> open.applyAsInt(s, method))
          .description("Item streams open now")
          .tag("method", method)
          .register(registry);
      FunctionCounter.builder(
              "cipherd.streams.idle.closed", streams, s -> closedIdle.applyAsLong(s, method))
          .description(
              "Item streams the server closed (CANCELLED) after receiving no item for the idle timeout")
          .tag("method", method)
          .register(registry);
    }
    Gauge.builder("cipherd.stream.idle.timeout", () -> idleTimeout.toNanos() / 1e9)
        .description(
            "How long an item stream may receive no item before it is closed (--stream-idle-timeout)")
        .baseUnit("seconds")
        .register(registry);
  }

  /** The per-connection call limit that grpc-java's transport enforces. */
  public static void bindConnectionLimit(MeterRegistry registry, int maxCallsPerConnection) {
    Gauge.builder("cipherd.connection.max.calls", () -> maxCallsPerConnection)
        .description(
            "Most calls open at once on one client connection (--max-calls-per-connection); "
                + "clients queue further calls")
        .register(registry);
  }
}

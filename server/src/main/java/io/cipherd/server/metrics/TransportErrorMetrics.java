package io.cipherd.server.metrics;

import io.cipherd.server.logging.PeerErrors;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What remote peers got wrong on the transport, read at scrape time from {@link PeerErrors}: the
 * log has one summary line a minute instead of a line each, so this is where their rate shows. A
 * fixed set of {@code kind} labels, never a value a peer chose.
 */
public final class TransportErrorMetrics {
  private static final String DESCRIPTION =
      "Requests the transport refused before any service saw them (malformed_header,"
          + " malformed_message, oversized_message) and calls reset by their clients before any"
          + " answer (reset_before_answer)";

  private TransportErrorMetrics() {}

  public static void bind(PeerErrors errors, MeterRegistry registry) {
    for (PeerErrors.Kind kind : PeerErrors.Kind.values()) {
      FunctionCounter.builder("cipherd.transport.errors", errors, e -> e.total(kind))
          .description(DESCRIPTION)
          .tag("kind", kind.label())
          .register(registry);
    }
  }
}

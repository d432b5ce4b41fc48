package io.cipherd.server.audit;

import java.time.Duration;

/**
 * The off-host copy of the trail, validated on construction.
 *
 * @param address where every line goes ({@code --audit-sink})
 * @param bufferBytes most bytes waiting to be sent; beyond it the oldest groups are dropped, and
 *     the loss recorded in the file
 * @param timeout how long a connection, and with {@code --audit-required} a record, may wait for
 *     the receiver
 */
public record AuditSinkConfig(AuditSinkAddress address, long bufferBytes, Duration timeout) {
  public static final long DEFAULT_BUFFER_BYTES = 64L << 20;
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);

  public AuditSinkConfig {
    if (address == null) {
      throw new IllegalArgumentException("an audit sink needs an address");
    }
    if (bufferBytes < 65_536) {
      throw new IllegalArgumentException(
          "audit sink buffer must be at least 65536 bytes, got " + bufferBytes);
    }
    if (timeout == null || timeout.toMillis() < 10) {
      throw new IllegalArgumentException("audit sink timeout must be at least 10 ms");
    }
  }

  /** Starts the sink, reporting to {@code listener}. */
  AuditSink start(AuditSink.Listener listener) {
    return AuditSink.start(address, bufferBytes, timeout, listener);
  }
}

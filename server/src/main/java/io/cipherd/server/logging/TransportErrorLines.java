package io.cipherd.server.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import org.slf4j.Marker;

/**
 * Turns grpc-netty's warning about a request it refused before any service saw it (a message over
 * {@code --max-message-bytes}, one that does not decompress), logged with a 40-line stack trace for
 * every such request, into one line with the status the client got. Only the status is kept: its
 * description says which limit and how large the message was, never what was in it. Other warnings
 * pass as they are.
 */
public final class TransportErrorLines extends TurboFilter {
  /** The logger and message of grpc-netty's warning, as its java.util.logging reaches logback. */
  static final String LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream";

  static final String MESSAGE = "Exception processing message";

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (t == null || !MESSAGE.equals(format) || !LOGGER.equals(logger.getName())) {
      return FilterReply.NEUTRAL;
    }
    Status status =
        t instanceof StatusRuntimeException e
            ? e.getStatus()
            : t instanceof StatusException e ? e.getStatus() : null;
    if (status == null) {
      return FilterReply.NEUTRAL;
    }
    // Logged again without the throwable, which this filter lets through.
    logger.warn(
        "refused a request before it reached the service: {}: {}",
        status.getCode(),
        status.getDescription());
    return FilterReply.DENY;
  }
}

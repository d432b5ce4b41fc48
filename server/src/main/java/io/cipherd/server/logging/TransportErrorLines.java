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
 * Turns grpc-netty's warnings about a request a remote peer got wrong, each logged with a 40 to 100
 * line stack trace, into a count in {@link PeerErrors} (one summary line a minute): a header that
 * does not decode (a bad {@code grpc-timeout} or {@code -bin} value, an upper-case name), a message
 * frame that is truncated or compressed without an encoding, one over {@code --max-message-bytes}.
 * A client could otherwise write megabytes of log a second without credentials.
 *
 * <p>Only errors in decoding what the peer sent are taken: grpc-netty's refusal of a message (it
 * carries the status the client got), and its stream errors raised while decoding the peer's header
 * block (Netty's HPACK decoder, grpc's parsing of a header value). Any other warning, including an
 * exception the server's own code threw while starting a call, keeps its stack trace.
 */
public final class TransportErrorLines extends TurboFilter {
  /** grpc-netty's refusal of a message: over the size limit, truncated, not decompressible. */
  static final String STREAM_LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerStream";

  static final String MESSAGE_REFUSED = "Exception processing message";

  /** grpc-netty's handler, which logs a stream error, and before it what onHeadersRead threw. */
  static final String HANDLER_LOGGER = "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler";

  static final String STREAM_ERROR = "Stream Error";

  static final String HEADERS_FAILED = "Exception in onHeadersRead()";

  /** Netty's HPACK decoder (and the header validation it calls): the peer's header block. */
  private static final String HPACK_DECODER =
      "io.grpc.netty.shaded.io.netty.handler.codec.http2.HpackDecoder";

  /** grpc's parse of a header's value with its key's marshaller ({@code grpc-timeout}...). */
  private static final String METADATA = "io.grpc.Metadata";

  /** Causes looked at, so a cyclic or deep chain costs a bounded walk. */
  private static final int MAX_CAUSES = 8;

  private final PeerErrors errors;

  /** As logback builds it, counting in {@link PeerErrors#GLOBAL}. */
  public TransportErrorLines() {
    this(PeerErrors.GLOBAL);
  }

  TransportErrorLines(PeerErrors errors) {
    this.errors = errors;
  }

  @Override
  public FilterReply decide(
      Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (t == null || format == null) {
      return FilterReply.NEUTRAL;
    }
    String name = logger.getName();
    if (STREAM_LOGGER.equals(name) && MESSAGE_REFUSED.equals(format)) {
      Status status = statusOf(t);
      if (status == null) {
        return FilterReply.NEUTRAL;
      }
      errors.count(
          status.getCode() == Status.Code.RESOURCE_EXHAUSTED
              ? PeerErrors.Kind.OVERSIZED_MESSAGE
              : PeerErrors.Kind.MALFORMED_MESSAGE);
      return FilterReply.DENY;
    }
    if (HANDLER_LOGGER.equals(name)
        && (STREAM_ERROR.equals(format) || HEADERS_FAILED.equals(format))
        && decodingPeerHeaders(t)) {
      // grpc-netty logs what onHeadersRead threw, then the stream error it became: count the
      // stream once.
      if (STREAM_ERROR.equals(format)) {
        errors.count(PeerErrors.Kind.MALFORMED_HEADER);
      }
      return FilterReply.DENY;
    }
    return FilterReply.NEUTRAL;
  }

  private static Status statusOf(Throwable t) {
    return t instanceof StatusRuntimeException e
        ? e.getStatus()
        : t instanceof StatusException e ? e.getStatus() : null;
  }

  /** Whether {@code t} or one of its causes was thrown decoding the header block the peer sent. */
  static boolean decodingPeerHeaders(Throwable t) {
    Throwable cause = t;
    for (int i = 0; cause != null && i < MAX_CAUSES; i++, cause = cause.getCause()) {
      for (StackTraceElement frame : cause.getStackTrace()) {
        String type = frame.getClassName();
        if (type.startsWith(HPACK_DECODER)
            || (type.equals(METADATA) && frame.getMethodName().equals("valueAsT"))) {
          return true;
        }
      }
    }
    return false;
  }
}

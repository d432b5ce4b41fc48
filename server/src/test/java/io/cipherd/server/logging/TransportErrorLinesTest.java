package io.cipherd.server.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.core.spi.FilterReply;
import io.grpc.Status;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * Which grpc-netty warnings are a remote peer's malformed request (counted, no line) and which keep
 * their stack trace (anything else, a server bug above all). The real warnings over a real socket
 * are driven by attacks/test_transport_abuse.py against the jar; here each rule on its own.
 */
class TransportErrorLinesTest {
  private final PeerErrors errors = new PeerErrors(Duration.ofDays(1));
  private final TransportErrorLines filter = new TransportErrorLines(errors);
  private final LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
  private final Logger stream = context.getLogger(TransportErrorLines.STREAM_LOGGER);
  private final Logger handler = context.getLogger(TransportErrorLines.HANDLER_LOGGER);

  @Test
  void refusedMessage_isCountedByItsStatus_withoutALine() {
    assertThat(
            decide(
                stream,
                TransportErrorLines.MESSAGE_REFUSED,
                Status.RESOURCE_EXHAUSTED
                    .withDescription("gRPC message exceeds maximum size 4194304: 5242880")
                    .asRuntimeException()))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                stream,
                TransportErrorLines.MESSAGE_REFUSED,
                Status.INTERNAL
                    .withDescription("Encountered end-of-stream mid-frame")
                    .asRuntimeException()))
        .isEqualTo(FilterReply.DENY);
    assertThat(errors.total(PeerErrors.Kind.OVERSIZED_MESSAGE)).isEqualTo(1);
    assertThat(errors.total(PeerErrors.Kind.MALFORMED_MESSAGE)).isEqualTo(1);
  }

  @Test
  void headerTheHpackDecoderRefused_isCountedOnce() {
    Exception invalidName =
        thrownAt(
            new IllegalStateException("invalid header name 'X-Upper'"),
            "io.grpc.netty.shaded.io.netty.handler.codec.http2.HpackDecoder$Http2HeadersSink",
            "appendToHeaderList");
    assertThat(decide(handler, TransportErrorLines.STREAM_ERROR, invalidName))
        .isEqualTo(FilterReply.DENY);
    assertThat(errors.total(PeerErrors.Kind.MALFORMED_HEADER)).isEqualTo(1);
  }

  @Test
  void headerValueThatDoesNotParse_isCountedOnce_thoughLoggedTwice() {
    Exception badTimeout =
        thrownAt(
            new NumberFormatException("For input string: \"bogu\""),
            "io.grpc.Metadata",
            "valueAsT");
    // grpc-netty logs what onHeadersRead threw, then the stream error wrapping it.
    assertThat(decide(handler, TransportErrorLines.HEADERS_FAILED, badTimeout))
        .isEqualTo(FilterReply.DENY);
    assertThat(
            decide(
                handler,
                TransportErrorLines.STREAM_ERROR,
                new IllegalStateException("For input string", badTimeout)))
        .isEqualTo(FilterReply.DENY);
    assertThat(errors.total(PeerErrors.Kind.MALFORMED_HEADER)).isEqualTo(1);
  }

  @Test
  void serverBugWhileStartingACall_keepsItsStackTrace() {
    Exception bug =
        thrownAt(
            new IllegalArgumentException("bug"),
            "io.cipherd.server.security.CallerIdentityInterceptor",
            "interceptCall");
    assertThat(decide(handler, TransportErrorLines.HEADERS_FAILED, bug))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(
            decide(handler, TransportErrorLines.STREAM_ERROR, new IllegalStateException("x", bug)))
        .isEqualTo(FilterReply.NEUTRAL);
    // The same message from another logger, or a refusal without a status, is not ours either.
    assertThat(
            decide(
                context.getLogger("io.cipherd.server.Other"),
                TransportErrorLines.MESSAGE_REFUSED,
                Status.INTERNAL.asRuntimeException()))
        .isEqualTo(FilterReply.NEUTRAL);
    assertThat(decide(stream, TransportErrorLines.MESSAGE_REFUSED, new IllegalStateException()))
        .isEqualTo(FilterReply.NEUTRAL);
    for (PeerErrors.Kind kind : PeerErrors.Kind.values()) {
      assertThat(errors.total(kind)).isZero();
    }
  }

  @Test
  void summary_isOneLinePerConcern_withCountsByKind_thenNothingUntilMore() {
    try (CapturedLogs captured = new CapturedLogs()) {
      for (int i = 0; i < 3; i++) {
        errors.count(PeerErrors.Kind.MALFORMED_HEADER);
      }
      errors.count(PeerErrors.Kind.OVERSIZED_MESSAGE);
      for (int i = 0; i < 5; i++) {
        errors.count(PeerErrors.Kind.RESET_BEFORE_ANSWER);
      }
      errors.summarize();
      errors.summarize();
      String text = captured.text();
      assertThat(text.lines().filter(line -> line.contains("malformed requests")))
          .singleElement()
          .asString()
          .startsWith("WARN " + PeerErrors.TRANSPORT_LOGGER)
          .contains("refused 4 malformed requests from remote peers")
          .contains("malformed_header=3, oversized_message=1");
      assertThat(text.lines().filter(line -> line.contains("reset by their clients")))
          .singleElement()
          .asString()
          .startsWith("INFO " + AccessLogInterceptor.LOGGER)
          .contains("5 calls reset by their clients before any answer");
    }
    assertThat(errors.total(PeerErrors.Kind.MALFORMED_HEADER)).isEqualTo(3);
  }

  private FilterReply decide(Logger logger, String format, Throwable t) {
    return filter.decide(null, logger, Level.WARN, format, null, t);
  }

  /** {@code e} as if thrown in {@code type.method}, called from grpc-netty's handler. */
  private static <E extends Exception> E thrownAt(E e, String type, String method) {
    e.setStackTrace(
        new StackTraceElement[] {
          new StackTraceElement(type, method, null, 1),
          new StackTraceElement(
              "io.grpc.netty.shaded.io.grpc.netty.NettyServerHandler", "onHeadersRead", null, 2)
        });
    return e;
  }
}

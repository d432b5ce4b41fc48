package io.cipherd.server.logging;

import io.grpc.Metadata;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * The id that ties one call's log lines and audit record together: one the server makes for every
 * call, never the caller's, so no caller can make its lines or records carry another call's id. The
 * caller's own {@code x-request-id} (to follow a request across services) is kept beside it as the
 * client request id.
 */
public final class RequestIds {
  /** The MDC key of the request id. */
  static final String MDC_KEY = "request_id";

  static final Metadata.Key<String> HEADER =
      Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);

  /** What the access log shows of a caller's id: a short token, as log lines must stay one line. */
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private RequestIds() {}

  /**
   * The request id of the call whose code runs on this thread (set by the access log), or null
   * outside a call.
   */
  public static String current() {
    return MDC.get(MDC_KEY);
  }

  /** A new call's id: 64 random bits in hex. */
  static String next() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  /** The {@code x-request-id} the caller sent, as it sent it, or null when it sent none. */
  public static String ofClient(Metadata headers) {
    return headers.get(HEADER);
  }

  /** The caller's id as the access log shows it: when it is a short token, else null. */
  static String ofClientForLog(Metadata headers) {
    String given = ofClient(headers);
    return given != null && SAFE.matcher(given).matches() ? given : null;
  }
}

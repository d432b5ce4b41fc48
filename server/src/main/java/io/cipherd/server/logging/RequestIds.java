package io.cipherd.server.logging;

import io.grpc.Metadata;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.MDC;

/**
 * The id that ties one call's log lines together: the caller's {@code x-request-id} when it is a
 * short token (so an id can follow a request across services), else a random one.
 */
public final class RequestIds {
  /** The MDC key of the request id. */
  static final String MDC_KEY = "request_id";

  static final Metadata.Key<String> HEADER =
      Metadata.Key.of("x-request-id", Metadata.ASCII_STRING_MARSHALLER);
  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private RequestIds() {}

  /**
   * The request id of the call whose code runs on this thread (set by the access log), or null
   * outside a call.
   */
  public static String current() {
    return MDC.get(MDC_KEY);
  }

  static String of(Metadata headers) {
    String given = headers.get(HEADER);
    if (given != null && SAFE.matcher(given).matches()) {
      return given;
    }
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}

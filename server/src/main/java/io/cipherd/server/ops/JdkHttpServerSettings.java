package io.cipherd.server.ops;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JDK {@code HttpServer}'s own bounds ({@code sun.net.httpserver.*} and {@code
 * jdk.httpserver.*}, documented in the {@code jdk.httpserver} module): without them it waits
 * forever for a half-sent request. They are system properties the JDK reads once, when the first
 * server of the process is created, so they are set before that, and one set on the command line
 * with {@code -D} is left as the operator gave it.
 */
final class JdkHttpServerSettings {
  private static final Logger log = LoggerFactory.getLogger(JdkHttpServerSettings.class);

  /**
   * Largest request head (request line and headers); probes and scrapes send well under 1 KiB, the
   * JDK would buffer up to 380 KiB per connection.
   */
  static final int MAX_REQUEST_HEADER_BYTES = 8 * 1024;

  private JdkHttpServerSettings() {}

  /** The properties for the limits, in the JDK's units (seconds, milliseconds, counts). */
  static Map<String, String> properties(Duration requestTimeout, int maxConnections) {
    String seconds = Long.toString(requestTimeout.toSeconds());
    Map<String, String> properties = new LinkedHashMap<>();
    // From the first byte of a request until its last: the head of a GET, so a slowloris or a
    // request never finished is closed.
    properties.put("sun.net.httpserver.maxReqTime", seconds);
    // From the end of a request until its answer is written: a client that does not read.
    properties.put("sun.net.httpserver.maxRspTime", seconds);
    // A connection that sent nothing yet, or nothing since its last answer.
    properties.put("sun.net.httpserver.idleInterval", seconds);
    // How often idle connections are looked for (10 s by default), so they close within a second
    // of the request timeout; requests and answers are checked every second already.
    properties.put("sun.net.httpserver.clockTick", "1000");
    properties.put("jdk.httpserver.maxConnections", Integer.toString(maxConnections));
    properties.put(
        "sun.net.httpserver.maxReqHeaderSize", Integer.toString(MAX_REQUEST_HEADER_BYTES));
    return properties;
  }

  /**
   * Sets each property of the limits that is not set yet; only the first {@code HttpServer} of the
   * process reads them, and cipherd creates none before its ops port.
   */
  static synchronized void apply(Duration requestTimeout, int maxConnections) {
    properties(requestTimeout, maxConnections)
        .forEach(
            (name, value) -> {
              String given = System.getProperty(name);
              if (given == null) {
                System.setProperty(name, value);
              } else if (!given.equals(value)) {
                log.warn("HTTP port: -D{}={} is used instead of {}", name, given, value);
              }
            });
  }
}

package io.cipherd.server.cli;

import java.time.Duration;

/**
 * What one client connection may hold and for how long, enforced by grpc-java's Netty transport
 * (HTTP/2 SETTINGS, PING and GOAWAY), not by cipherd's own code.
 *
 * @param maxCallsPerConnection most calls (streams included) open at once on one connection; sent
 *     to clients as SETTINGS_MAX_CONCURRENT_STREAMS
 * @param keepAliveTime how long a connection may be silent before the server pings the client
 * @param keepAliveTimeout how long the server waits for that ping's answer before closing the
 *     connection
 * @param permitKeepAliveTime the shortest interval at which clients may ping; faster pingers are
 *     sent GOAWAY, and pings on a connection without calls are never permitted
 * @param maxConnectionIdle how long a connection without calls stays open; zero: forever
 * @param maxConnectionAge how long any connection stays open before the server asks the client to
 *     reconnect; zero: forever
 * @param maxConnectionAgeGrace how long calls in flight may still finish once a connection reached
 *     {@code maxConnectionAge}
 * @param maxStreamResets most streams a client may reset (RST_STREAM) on one connection within
 *     {@link #STREAM_RESET_WINDOW}; past it the connection gets GOAWAY (HTTP/2 rapid reset); zero:
 *     no limit
 */
public record ConnectionLimits(
    int maxCallsPerConnection,
    Duration keepAliveTime,
    Duration keepAliveTimeout,
    Duration permitKeepAliveTime,
    Duration maxConnectionIdle,
    Duration maxConnectionAge,
    Duration maxConnectionAgeGrace,
    int maxStreamResets) {
  /** The window {@code maxStreamResets} counts in. */
  public static final Duration STREAM_RESET_WINDOW = Duration.ofSeconds(10);

  /** The command line's defaults; its option descriptions say why. */
  public static final ConnectionLimits DEFAULT =
      new ConnectionLimits(
          128,
          Duration.ofMinutes(1),
          Duration.ofSeconds(20),
          Duration.ofMinutes(5),
          Duration.ofMinutes(15),
          Duration.ofMinutes(30),
          Duration.ofSeconds(30),
          1000);

  public ConnectionLimits {
    ServerConfig.checkAtLeastOne(maxCallsPerConnection, "max calls per connection");
    positive(keepAliveTime, "keepalive time");
    positive(keepAliveTimeout, "keepalive timeout");
    notNegative(permitKeepAliveTime, "permitted keepalive time");
    notNegative(maxConnectionIdle, "max connection idle");
    notNegative(maxConnectionAge, "max connection age");
    notNegative(maxConnectionAgeGrace, "max connection age grace");
    if (maxStreamResets < 0) {
      throw new IllegalArgumentException(
          "max stream resets must not be negative, got " + maxStreamResets);
    }
  }

  private static void positive(Duration value, String what) {
    notNegative(value, what);
    if (value.isZero()) {
      throw new IllegalArgumentException(what + " must be positive");
    }
  }

  private static void notNegative(Duration value, String what) {
    if (value == null || value.isNegative()) {
      throw new IllegalArgumentException(
          what + " is required and must not be negative, got " + value);
    }
  }
}

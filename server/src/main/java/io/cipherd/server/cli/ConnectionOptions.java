package io.cipherd.server.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options that bound each client connection (calls at once, keepalive pings, idle and age
 * limits, stream resets); each has a CIPHERD_* variable.
 */
public final class ConnectionOptions {
  @Option(
      names = "--max-calls-per-connection",
      defaultValue = "${env:CIPHERD_MAX_CALLS_PER_CONNECTION:-128}",
      description =
          "Most calls, streams included, open at once on one client connection; clients queue "
              + "further calls until one ends (CIPHERD_MAX_CALLS_PER_CONNECTION). Twice what the load tests "
              + "run per connection, while one connection cannot hold thousands of idle streams. "
              + "Default: ${DEFAULT-VALUE}.")
  int maxCallsPerConnection;

  @Option(
      names = "--keepalive-time",
      defaultValue = "${env:CIPHERD_KEEPALIVE_TIME:-PT1M}",
      description =
          "Ping a client whose connection was silent this long, ISO-8601 (CIPHERD_KEEPALIVE_TIME): "
              + "finds clients that vanished without closing (crash, network cut) in minutes instead of "
              + "grpc-java's two hours, for one small frame a minute. Default: ${DEFAULT-VALUE}.")
  Duration keepAliveTime;

  @Option(
      names = "--keepalive-timeout",
      defaultValue = "${env:CIPHERD_KEEPALIVE_TIMEOUT:-PT20S}",
      description =
          "Close the connection when a ping is not answered within this, ISO-8601 "
              + "(CIPHERD_KEEPALIVE_TIMEOUT); grpc-java's default. Default: ${DEFAULT-VALUE}.")
  Duration keepAliveTimeout;

  @Option(
      names = "--permit-keepalive-time",
      defaultValue = "${env:CIPHERD_PERMIT_KEEPALIVE_TIME:-PT5M}",
      description =
          "Shortest ping interval allowed to clients, ISO-8601 (CIPHERD_PERMIT_KEEPALIVE_TIME); a "
              + "client pinging faster, or pinging without calls, gets GOAWAY (too_many_pings). grpc-java's and "
              + "grpc-go's default: a client can ask for no more than the server grants anyway. "
              + "Default: ${DEFAULT-VALUE}.")
  Duration permitKeepAliveTime;

  @Option(
      names = "--max-connection-idle",
      defaultValue = "${env:CIPHERD_MAX_CONNECTION_IDLE:-PT15M}",
      description =
          "Close a connection that had no call for this long, PT0S for never, ISO-8601 "
              + "(CIPHERD_MAX_CONNECTION_IDLE). Clients reconnect on their next call; a client calling every few "
              + "minutes keeps its connection. Default: ${DEFAULT-VALUE}.")
  Duration maxConnectionIdle;

  @Option(
      names = "--max-connection-age",
      defaultValue = "${env:CIPHERD_MAX_CONNECTION_AGE:-PT30M}",
      description =
          "Ask clients to reconnect (GOAWAY) after a connection has been open this long, give or "
              + "take 10%%, PT0S for never, ISO-8601 (CIPHERD_MAX_CONNECTION_AGE). Bounds how long one "
              + "authentication lasts (a connection's client certificate, a token's stream) and spreads "
              + "long-lived clients over new replicas; gRPC clients reconnect on their own, a stream cut at "
              + "the end of the grace resumes after its last reference. Default: ${DEFAULT-VALUE}.")
  Duration maxConnectionAge;

  @Option(
      names = "--max-connection-age-grace",
      defaultValue = "${env:CIPHERD_MAX_CONNECTION_AGE_GRACE:-PT30S}",
      description =
          "With --max-connection-age, how long calls in flight may still finish before they are "
              + "cancelled, ISO-8601 (CIPHERD_MAX_CONNECTION_AGE_GRACE); longer than any unary call or batch. "
              + "Default: ${DEFAULT-VALUE}.")
  Duration maxConnectionAgeGrace;

  @Option(
      names = "--max-stream-resets",
      defaultValue = "${env:CIPHERD_MAX_STREAM_RESETS:-1000}",
      description =
          "Most calls a client may reset (HTTP/2 RST_STREAM) on one connection in any 10 s, 0 for no "
              + "limit (CIPHERD_MAX_STREAM_RESETS); past it the connection gets GOAWAY "
              + "(ENHANCE_YOUR_CALM) and its client reconnects. Against HTTP/2 rapid reset (a stream "
              + "opened and reset at once, thousands a second); a client resets a stream only when it "
              + "cancels a call, far fewer than 100 a second. Default: ${DEFAULT-VALUE}.")
  int maxStreamResets;

  /** The validated limits. */
  ConnectionLimits toLimits() {
    return new ConnectionLimits(
        maxCallsPerConnection,
        keepAliveTime,
        keepAliveTimeout,
        permitKeepAliveTime,
        maxConnectionIdle,
        maxConnectionAge,
        maxConnectionAgeGrace,
        maxStreamResets);
  }
}

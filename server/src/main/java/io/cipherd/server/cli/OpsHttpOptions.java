package io.cipherd.server.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options that bound clients of the operators' HTTP port (request time, connections); each has
 * a CIPHERD_* variable.
 */
public final class OpsHttpOptions {
  @Option(
      names = "--http-request-timeout",
      defaultValue = "${env:CIPHERD_HTTP_REQUEST_TIMEOUT:-PT2S}",
      description =
          "Longest a client of the HTTP port may take to send a request, to read its answer, or "
              + "stay connected without one, whole seconds, ISO-8601 (CIPHERD_HTTP_REQUEST_TIMEOUT); "
              + "then the server closes the connection, so half-sent requests cannot hold it. Probes "
              + "and scrapes take milliseconds. Default: ${DEFAULT-VALUE}.")
  Duration requestTimeout;

  @Option(
      names = "--http-max-connections",
      defaultValue = "${env:CIPHERD_HTTP_MAX_CONNECTIONS:-256}",
      description =
          "Most connections open at once on the HTTP port; further ones are closed on accept "
              + "(CIPHERD_HTTP_MAX_CONNECTIONS). Default: ${DEFAULT-VALUE}.")
  int maxConnections;

  /** The validated limits. */
  OpsHttpLimits toLimits() {
    return new OpsHttpLimits(requestTimeout, maxConnections);
  }
}

package io.cipherd.server.cli;

import java.time.Duration;

/**
 * What one client of the operators' HTTP port (/metrics, /healthz, /readyz) may hold and for how
 * long, so that slow or half-open connections cannot keep the probes from answering.
 *
 * @param requestTimeout the longest a connection may take to send a request, to read its answer, or
 *     stay open without a request; whole seconds, the JDK server's granularity
 * @param maxConnections most connections open at once; further ones are closed on accept
 */
public record OpsHttpLimits(Duration requestTimeout, int maxConnections) {
  /**
   * The command line's defaults: a probe or a scrape sends its request in one packet and is
   * answered in milliseconds, so 2 s leaves room for a retransmission (TCP's first is after 1 s)
   * and frees a held connection within the chart's 2 s probe timeout plus the JDK's 1 s timer tick;
   * 256 connections is many times what kubelet and Prometheus open, at a few KiB each.
   */
  public static final OpsHttpLimits DEFAULT = new OpsHttpLimits(Duration.ofSeconds(2), 256);

  public OpsHttpLimits {
    if (requestTimeout == null
        || requestTimeout.compareTo(Duration.ofSeconds(1)) < 0
        || requestTimeout.compareTo(Duration.ofHours(1)) > 0
        || requestTimeout.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException(
          "HTTP request timeout must be whole seconds between PT1S and PT1H, got "
              + requestTimeout);
    }
    ServerConfig.checkAtLeastOne(maxConnections, "max HTTP connections");
  }
}

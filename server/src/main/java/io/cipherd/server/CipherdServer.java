package io.cipherd.server;

import io.cipherd.server.cli.ConnectionLimits;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.metrics.StreamMetrics;
import io.cipherd.server.ops.OpsHttpServer;
import io.cipherd.server.security.ReloadingTlsCredentials;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running cipherd gRPC server on a real port. Calls run on the transport threads (direct
 * executor); the services move anything that may block to their own pool.
 */
public final class CipherdServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CipherdServer.class);

  private final ServerConfig config;
  private final Cipherd services;
  private final Server server;

  /** The metrics and probes port, or null when started without one. */
  private final OpsHttpServer http;

  /** Null when serving plaintext. */
  private final ReloadingTlsCredentials tls;

  /** Null unless serving mutual TLS. */
  private final TrustedConnections connections;

  /** Serving gRPC only, without the metrics and probes port. */
  private CipherdServer(
      ServerConfig config,
      Cipherd services,
      Server server,
      ReloadingTlsCredentials tls,
      TrustedConnections connections) {
    this.config = config;
    this.services = services;
    this.server = server;
    this.tls = tls;
    this.connections = connections;
    this.http = null;
  }

  /** {@code grpc}'s server, with the metrics and probes port {@code http}. */
  private CipherdServer(CipherdServer grpc, OpsHttpServer http) {
    this.config = grpc.config;
    this.services = grpc.services;
    this.server = grpc.server;
    this.tls = grpc.tls;
    this.connections = grpc.connections;
    this.http = http;
  }

  /**
   * As {@link #start(ServerConfig, Cipherd)}, plus the HTTP port for /metrics, /healthz and /readyz
   * on the same host; it stays up while calls drain so probes see /readyz turn 503.
   */
  public static CipherdServer start(ServerConfig config, ObservabilityConfig ops, Cipherd services)
      throws IOException {
    CipherdServer grpc = start(config, services);
    try {
      OpsHttpServer http =
          OpsHttpServer.start(
              new InetSocketAddress(InetAddress.getByName(config.host()), ops.httpPort()),
              ops.httpLimits().requestTimeout(),
              ops.httpLimits().maxConnections(),
              CipherdServer.exposition(services.metrics()),
              services.health(),
              services::keyStoreAnswers);
      return new CipherdServer(grpc, http);
    } catch (IOException | RuntimeException e) {
      // As when the gRPC port cannot bind: stop what started, and leave the services to the caller.
      services.health().markNotServing();
      grpc.server.shutdownNow();
      grpc.closeTransport();
      throw e;
    }
  }

  /** {@code metrics} as {@code /metrics} answers them, in the format the request accepts. */
  public static Function<String, OpsHttpServer.Exposition> exposition(CipherdMetrics metrics) {
    return accept -> {
      String contentType = metrics.contentType(accept);
      return new OpsHttpServer.Exposition(contentType, metrics.scrape(contentType));
    };
  }

  /** Binds the port and starts serving; the services are closed with the server. */
  public static CipherdServer start(ServerConfig config, Cipherd services) throws IOException {
    InetAddress address = InetAddress.getByName(config.host());
    InetSocketAddress socket = new InetSocketAddress(address, config.port());
    ReloadingTlsCredentials tls = null;
    TrustedConnections connections = null;
    NettyServerBuilder builder;
    if (config.tls().enabled()) {
      tls = ReloadingTlsCredentials.load(config.tls());
      builder = NettyServerBuilder.forAddress(socket, tls.credentials());
      if (config.tls().mutual()) {
        // A replaced client CA closes the connections whose certificate it no longer verifies.
        connections = TrustedConnections.serve(builder);
        tls.onClientCaChange(connections::closeUntrusted);
      }
      log.info(
          "serving gRPC over {}TLS on {}:{}",
          config.tls().mutual() ? "mutual " : "",
          config.host(),
          config.port());
    } else {
      checkPlaintextAllowed(config, address);
      builder = NettyServerBuilder.forAddress(socket);
    }
    Server server;
    try {
      limitConnections(builder, config.connections());
      server =
          services
              .addTo(
                  builder.directExecutor().maxInboundMessageSize(config.maxInboundMessageBytes()))
              .build()
              .start();
    } catch (IOException | RuntimeException e) {
      if (tls != null) {
        tls.close();
      }
      if (connections != null) {
        connections.close();
      }
      throw e;
    }
    StreamMetrics.bindConnectionLimit(
        services.metrics().registry(), config.connections().maxCallsPerConnection());
    services.health().markServing();
    return new CipherdServer(config, services, server, tls, connections);
  }

  /**
   * grpc-java's own per-connection bounds: it refuses calls past the limit (clients queue them),
   * pings silent connections and closes those that do not answer, sends GOAWAY to clients that ping
   * too often, to connections idle or old past their limits and to clients resetting streams faster
   * than the limit (HTTP/2 rapid reset).
   */
  private static void limitConnections(NettyServerBuilder builder, ConnectionLimits limits) {
    builder
        .maxConcurrentCallsPerConnection(limits.maxCallsPerConnection())
        .keepAliveTime(limits.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
        .keepAliveTimeout(limits.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS)
        .permitKeepAliveTime(limits.permitKeepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
        // Pings on a connection without calls only keep an unused connection warm (grpc-java's
        // default too).
        .permitKeepAliveWithoutCalls(false);
    if (!limits.maxConnectionIdle().isZero()) {
      builder.maxConnectionIdle(limits.maxConnectionIdle().toNanos(), TimeUnit.NANOSECONDS);
    }
    if (!limits.maxConnectionAge().isZero()) {
      builder
          .maxConnectionAge(limits.maxConnectionAge().toNanos(), TimeUnit.NANOSECONDS)
          .maxConnectionAgeGrace(limits.maxConnectionAgeGrace().toNanos(), TimeUnit.NANOSECONDS);
    }
    if (limits.maxStreamResets() > 0) {
      builder.maxRstFramesPerWindow(
          limits.maxStreamResets(), (int) ConnectionLimits.STREAM_RESET_WINDOW.toSeconds());
    }
  }

  /** The bound port, useful when the configured port was 0. */
  public int port() {
    return server.getPort();
  }

  /** The bound HTTP port of /metrics and the probes; throws if started without one. */
  public int httpPort() {
    if (http == null) {
      throw new IllegalStateException("started without the HTTP port");
    }
    return http.port();
  }

  public Cipherd services() {
    return services;
  }

  /** Blocks until the server has terminated. */
  public void awaitTermination() throws InterruptedException {
    server.awaitTermination();
  }

  /**
   * Graceful stop: health NOT_SERVING, refuse new calls, end the item streams once each has
   * answered what it received (UNAVAILABLE: their clients resume elsewhere after the last reference
   * they received), let the other in-flight calls finish within the grace period, then cancel what
   * is left and release the services.
   */
  @Override
  public void close() {
    services.health().markNotServing();
    server.shutdown();
    services.streams().drain();
    try {
      if (!server.awaitTermination(config.shutdownGrace().toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn(
            "in-flight calls did not finish within {}; cancelling them", config.shutdownGrace());
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    } finally {
      if (http != null) {
        http.close();
      }
      closeTransport();
      services.close();
    }
  }

  /** Stops watching the TLS files and the event loops this server made, if any. */
  private void closeTransport() {
    if (tls != null) {
      tls.close();
    }
    if (connections != null) {
      connections.close();
    }
  }

  private static void checkPlaintextAllowed(ServerConfig config, InetAddress address) {
    if (address.isLoopbackAddress()) {
      log.warn(
          "serving plaintext gRPC on loopback {}:{}: only processes on this machine can connect",
          config.host(),
          config.port());
      return;
    }
    if (!config.insecure()) {
      throw new IllegalStateException(
          "refusing plaintext gRPC on non-loopback address "
              + config.host()
              + ": callers' plaintexts would cross the network unencrypted; pass --insecure to accept that");
    }
    log.warn(
        "INSECURE: serving plaintext gRPC on {}:{}; anyone on the network can read the traffic",
        config.host(),
        config.port());
  }
}

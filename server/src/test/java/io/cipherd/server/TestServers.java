package io.cipherd.server;

import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.logging.LogFormat;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

/** A real cipherd on loopback with gRPC and HTTP on free ports, and plain HTTP GETs against it. */
public final class TestServers {
  public static final char[] PASSWORD = "ops-test-password".toCharArray();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestServers() {}

  /**
   * A small server's configuration, on a free loopback port with the key store in {@code dataDir}
   * under {@link #PASSWORD}: a test adds what it is about (TLS, an access policy file) and builds.
   */
  public static ServerConfig.Builder config(Path dataDir) {
    return ServerConfig.builder()
        .port(0)
        .dataDir(dataDir)
        .keyStorePassword(PASSWORD)
        .maxInboundMessageBytes(64 * 1024)
        .limits(new RequestLimits(128))
        .blockingThreads(2)
        .blockingQueue(100)
        .shutdownGrace(Duration.ofSeconds(2));
  }

  /**
   * The services of {@code config}, over its data directory's PKCS#12 key store, taking key
   * material in the clear as well as wrapped: the tests that import keys predate wrapped import.
   */
  public static Cipherd.Builder services(ServerConfig config) throws Exception {
    return Cipherd.builder(Pkcs12KeyStore.open(config.dataDir(), config.keyStorePassword()))
        .subjectStore(new MemorySubjectStore())
        .config(config)
        .allowPlaintextKeyImport(true);
  }

  /**
   * Starts {@code services} on {@code config}'s port, closing them if the server does not start.
   */
  public static CipherdServer start(ServerConfig config, Cipherd services) throws Exception {
    return start(config, null, services);
  }

  /**
   * As {@link #start(ServerConfig, Cipherd)}, and with the operators' HTTP port as {@code ops} says
   * unless it is null.
   */
  public static CipherdServer start(ServerConfig config, ObservabilityConfig ops, Cipherd services)
      throws Exception {
    try {
      return ops == null
          ? CipherdServer.start(config, services)
          : CipherdServer.start(config, ops, services);
    } catch (Exception e) {
      services.close();
      throw e;
    }
  }

  /** A server with the HTTP port on a free port too, its metrics naming keys as given. */
  public static CipherdServer start(Path dataDir, boolean metricsKeyNames) throws Exception {
    ServerConfig config = config(dataDir).build();
    return start(
        config,
        new ObservabilityConfig(0, LogFormat.TEXT, metricsKeyNames),
        services(config).metrics(new CipherdMetrics(metricsKeyNames)).build());
  }

  public static ManagedChannel channel(CipherdServer server) {
    return Grpc.newChannelBuilderForAddress(
            "127.0.0.1", server.port(), InsecureChannelCredentials.create())
        .build();
  }

  public static HttpResponse<String> get(CipherdServer server, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() + path))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}

package io.cipherd.server.ops;

import io.cipherd.server.Cipherd;
import io.cipherd.server.CipherdServer;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.cli.OpsHttpLimits;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.subjects.MemorySubjectStore;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Small services over a key store with their operators' HTTP port on a free loopback port, at the
 * default limits, marked serving: what a probe or scrape test talks to without a gRPC port.
 */
record RunningOpsServer(Cipherd services, OpsHttpServer http) implements AutoCloseable {
  static RunningOpsServer start(KeyStore store) throws IOException {
    Cipherd services =
        Cipherd.builder(store)
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(8))
            .blockingThreads(1)
            .blockingQueue(8)
            .build();
    OpsHttpServer http;
    try {
      http =
          OpsHttpServer.start(
              new InetSocketAddress("127.0.0.1", 0),
              OpsHttpLimits.DEFAULT.requestTimeout(),
              OpsHttpLimits.DEFAULT.maxConnections(),
              CipherdServer.exposition(services.metrics()),
              services.health(),
              services::keyStoreAnswers);
    } catch (IOException | RuntimeException e) {
      services.close();
      throw e;
    }
    services.health().markServing();
    return new RunningOpsServer(services, http);
  }

  int port() {
    return http.port();
  }

  @Override
  public void close() {
    try (Cipherd closedSecond = services) {
      http.close();
    }
  }
}

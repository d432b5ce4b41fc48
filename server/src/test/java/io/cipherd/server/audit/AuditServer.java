package io.cipherd.server.audit;

import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.Cipherd;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/** An audited cipherd in this JVM, wired as Main wires it, with stubs for its three services. */
final class AuditServer implements AutoCloseable {
  final InMemoryKeyStore store = new InMemoryKeyStore();
  final AuditKey key;
  final Cipherd services;
  final Server server;
  final ManagedChannel channel;
  final CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  final CryptoServiceGrpc.CryptoServiceStub cryptoAsync;
  final KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;
  final AuditServiceGrpc.AuditServiceBlockingStub audit;
  private boolean closed;

  AuditServer(AuditConfig config, AccessPolicy policy) throws IOException {
    this.key = new AuditKey(store.auditKeyMaterial());
    Cipherd.Builder builder =
        Cipherd.builder(store)
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(4096))
            .blockingThreads(4)
            .blockingQueue(1000)
            .audit(config);
    if (policy != null) {
      builder.accessPolicy(policy);
    }
    this.services = builder.build();
    String name = InProcessServerBuilder.generateName();
    this.server =
        services.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
    this.channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    this.crypto = CryptoServiceGrpc.newBlockingStub(channel);
    this.cryptoAsync = CryptoServiceGrpc.newStub(channel);
    this.admin = KeyAdminServiceGrpc.newBlockingStub(channel);
    this.audit = AuditServiceGrpc.newBlockingStub(channel);
  }

  /** Stops serving and closes the trail, which writes what is queued and a last checkpoint. */
  @Override
  public void close() throws InterruptedException {
    if (closed) {
      return;
    }
    closed = true;
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    services.close();
  }
}

package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.DecryptRequest;
import io.cipherd.api.v1.EncryptRequest;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.RotateKeyRequest;
import io.cipherd.server.Cipherd;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.subjects.MemorySubjectStore;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A cipherd server in this JVM, wired exactly as {@code Main} wires it, on a PKCS12 key store in a
 * temporary directory, with a channel and blocking stubs for both services. It takes key material
 * in the clear ({@code --allow-plaintext-key-import}), which the tests of ImportKey predate;
 * ImportJobApiTest turns it off.
 */
final class InProcessCipherd implements AutoCloseable {
  static final char[] PASSWORD = "test-password".toCharArray();

  final Cipherd services;

  /** The key store under the server, as given to it (not metered), for tests that reach past it. */
  final KeyStore store;

  final Server server;
  final ManagedChannel channel;
  final CryptoServiceGrpc.CryptoServiceBlockingStub crypto;
  final CryptoServiceGrpc.CryptoServiceStub cryptoAsync;
  final KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin;

  private InProcessCipherd(Cipherd services, KeyStore store) throws IOException {
    this.services = services;
    this.store = store;
    String name = InProcessServerBuilder.generateName();
    this.server =
        services.addTo(InProcessServerBuilder.forName(name).directExecutor()).build().start();
    services.health().markServing();
    this.channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    this.crypto = CryptoServiceGrpc.newBlockingStub(channel);
    this.cryptoAsync = CryptoServiceGrpc.newStub(channel);
    this.admin = KeyAdminServiceGrpc.newBlockingStub(channel);
  }

  /**
   * A server on the PKCS12 store in {@code dataDir}, with at most {@code maxBatchItems} per batch.
   */
  static InProcessCipherd start(Path dataDir, int maxBatchItems) throws IOException {
    KeyStore store = Pkcs12KeyStore.open(dataDir, PASSWORD);
    return new InProcessCipherd(
        Cipherd.builder(store)
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(maxBatchItems))
            .blockingThreads(4)
            .blockingQueue(1000)
            .allowPlaintextKeyImport(true)
            .build(),
        store);
  }

  /** A server that enforces {@code accessPolicy}. */
  static InProcessCipherd start(Path dataDir, AccessPolicy accessPolicy) throws IOException {
    KeyStore store = Pkcs12KeyStore.open(dataDir, PASSWORD);
    return new InProcessCipherd(
        Cipherd.builder(store)
            .subjectStore(new MemorySubjectStore())
            .limits(new RequestLimits(64))
            .blockingThreads(4)
            .blockingQueue(1000)
            .allowPlaintextKeyImport(true)
            .accessPolicy(accessPolicy)
            .build(),
        store);
  }

  static InProcessCipherd start(Path dataDir) throws IOException {
    return start(dataDir, 64);
  }

  /** A server with the settings of {@link #start(Path)} changed by {@code settings}. */
  static InProcessCipherd start(Path dataDir, UnaryOperator<Cipherd.Builder> settings)
      throws IOException {
    return on(Pkcs12KeyStore.open(dataDir, PASSWORD), settings);
  }

  /**
   * A server on {@code store}, with the settings of {@link #start(Path)} changed by {@code
   * settings}.
   */
  static InProcessCipherd on(KeyStore store, UnaryOperator<Cipherd.Builder> settings)
      throws IOException {
    return new InProcessCipherd(
        settings
            .apply(
                Cipherd.builder(store)
                    .subjectStore(new MemorySubjectStore())
                    .limits(new RequestLimits(64))
                    .blockingThreads(4)
                    .blockingQueue(1000)
                    .allowPlaintextKeyImport(true))
            .build(),
        store);
  }

  /** The ciphertext of {@code plaintext} (UTF-8) under key {@code key}, without a context. */
  String encrypt(String key, String plaintext) {
    return encrypt(key, plaintext, "");
  }

  /** The ciphertext of {@code plaintext} under key {@code key} and {@code context} (both UTF-8). */
  String encrypt(String key, String plaintext, String context) {
    return crypto
        .encrypt(
            EncryptRequest.newBuilder()
                .setKeyName(key)
                .setPlaintext(ByteString.copyFromUtf8(plaintext))
                .setContext(ByteString.copyFromUtf8(context))
                .build())
        .getCiphertext();
  }

  /** The plaintext (UTF-8) of {@code ciphertext}. */
  String decrypt(String ciphertext) {
    return crypto
        .decrypt(DecryptRequest.newBuilder().setCiphertext(ciphertext).build())
        .getPlaintext()
        .toStringUtf8();
  }

  /** The plaintext (UTF-8) of {@code ciphertext} made under {@code context} (UTF-8). */
  String decrypt(String ciphertext, String context) {
    return crypto
        .decrypt(
            DecryptRequest.newBuilder()
                .setCiphertext(ciphertext)
                .setContext(ByteString.copyFromUtf8(context))
                .build())
        .getPlaintext()
        .toStringUtf8();
  }

  /** Rotates key {@code key}. */
  void rotate(String key) {
    admin.rotateKey(RotateKeyRequest.newBuilder().setKeyName(key).build());
  }

  @Override
  public void close() throws InterruptedException {
    channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    services.close();
  }
}

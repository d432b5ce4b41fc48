package io.cipherd.server.api;

import io.cipherd.server.crypto.CipherPoolConfig;
import io.cipherd.server.crypto.CipherPools;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.KeyRing;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.security.AccessDenials;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.BearerTokens;
import io.cipherd.server.security.CallerIdentityInterceptor;
import io.cipherd.server.security.PolicyAuthorizer;
import io.grpc.ServerBuilder;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.protobuf.services.HealthStatusManager;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * cipherd's services and what they share, wired in one place that {@code Main} and the tests both
 * call: {@link #addTo} puts them on any {@link ServerBuilder}, in-process or Netty.
 */
public final class CipherdServices implements AutoCloseable {
  private final KeyStore keyStore;
  private final KeyRing keyRing;
  private final CipherPools cipherPools;
  private final ExecutorService blocking;
  private final HealthStatusManager health = new HealthStatusManager();
  private final CryptoServiceImpl crypto;
  private final KeyAdminServiceImpl admin;
  private final AccessDenials accessDenials = new AccessDenials();
  private final CallerIdentityInterceptor callerIdentity;

  /** Without an access policy: every caller may do everything. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue) {
    this(keyStore, poolConfig, limits, blockingThreads, blockingQueue, (Supplier<AccessPolicy>) null);
  }

  /** With {@code accessPolicy} enforced on every key operation, or none if null. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue,
      AccessPolicy accessPolicy) {
    this(keyStore, poolConfig, limits, blockingThreads, blockingQueue,
        accessPolicy == null ? null : () -> accessPolicy);
  }

  /** With the policy in force at each call (e.g. reloaded from its file), or none if null. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue,
      Supplier<AccessPolicy> accessPolicy) {
    Authorizer authorizer = accessPolicy == null
        ? Authorizer.ALLOW_ALL
        : new PolicyAuthorizer(accessPolicy, accessDenials);
    this.callerIdentity = accessPolicy == null
        ? new CallerIdentityInterceptor(BearerTokens.NONE)
        : new CallerIdentityInterceptor(() -> accessPolicy.get().tokens());
    this.keyStore = keyStore;
    this.keyRing = new KeyRing(keyStore, Clock.systemUTC());
    this.cipherPools = new CipherPools(poolConfig);
    this.blocking = new ThreadPoolExecutor(blockingThreads, blockingThreads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(blockingQueue), daemonThreads("cipherd-blocking-"));
    CallDispatcher dispatcher = new CallDispatcher(blocking);
    CryptoEngine engine = new CryptoEngine(keyRing, new PayloadCipher(cipherPools), authorizer);
    this.crypto = new CryptoServiceImpl(engine, dispatcher, limits);
    this.admin = new KeyAdminServiceImpl(keyRing, dispatcher, authorizer);
  }

  /**
   * Adds the crypto, key-admin, health and reflection services to {@code builder}, behind the
   * interceptor that sets {@link CallerIdentity}.
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    return builder
        .intercept(callerIdentity)
        .addService(crypto)
        .addService(admin)
        .addService(health.getHealthService())
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(legacyReflection());
  }

  /** Marks the server and both services SERVING. */
  public void markServing() {
    setStatus(ServingStatus.SERVING);
  }

  /** Marks everything NOT_SERVING, so load balancers stop sending new calls before shutdown. */
  public void markNotServing() {
    setStatus(ServingStatus.NOT_SERVING);
  }

  public KeyRing keyRing() {
    return keyRing;
  }

  public CipherPools cipherPools() {
    return cipherPools;
  }

  /** Calls and items refused by the access policy, for metrics. */
  public AccessDenials accessDenials() {
    return accessDenials;
  }

  @Override
  public void close() {
    health.enterTerminalState();
    blocking.shutdown();
    try {
      blocking.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    blocking.shutdownNow();
    cipherPools.close();
    keyStore.close();
  }

  private void setStatus(ServingStatus status) {
    health.setStatus("", status);
    health.setStatus(io.cipherd.api.v1.CryptoServiceGrpc.SERVICE_NAME, status);
    health.setStatus(io.cipherd.api.v1.KeyAdminServiceGrpc.SERVICE_NAME, status);
  }

  /** grpcurl and older tools still ask the v1alpha reflection service. */
  @SuppressWarnings("deprecation")
  private static io.grpc.BindableService legacyReflection() {
    return io.grpc.protobuf.services.ProtoReflectionService.newInstance();
  }

  private static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger next = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + next.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}

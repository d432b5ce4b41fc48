package io.cipherd.server.api;

import io.cipherd.server.logging.AccessLogInterceptor;
import io.cipherd.server.logging.CallContextExecutor;
import io.cipherd.server.crypto.CipherPoolConfig;
import io.cipherd.server.crypto.CipherPools;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.KeyRing;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.metrics.AccessDenialMetrics;
import io.cipherd.server.metrics.CipherPoolMetrics;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.metrics.CryptoMetrics;
import io.cipherd.server.metrics.KeyCacheMetrics;
import io.cipherd.server.metrics.MeteredKeyStore;
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
import io.micrometer.core.instrument.binder.grpc.MetricCollectingServerInterceptor;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
  /** Health service name that is NOT_SERVING while the key store cannot be reached (cached keys still work). */
  public static final String KEY_STORE_HEALTH = "cipherd.KeyStore";

  private final KeyStore keyStore;
  private final KeyRing keyRing;
  private final CipherPools cipherPools;
  private final ExecutorService blocking;
  private final HealthStatusManager health = new HealthStatusManager();
  private final CryptoServiceImpl crypto;
  private final KeyAdminServiceImpl admin;
  private final CipherdMetrics metrics;
  private volatile boolean serving;
  private volatile ScheduledExecutorService keyRefresh;
  private final AccessDenials accessDenials = new AccessDenials();
  private final CallerIdentityInterceptor callerIdentity;

  /** Without an access policy: every caller may do everything. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue) {
    this(keyStore, poolConfig, limits, blockingThreads, blockingQueue,
        new CipherdMetrics(/* keyNames= */ false), (Supplier<AccessPolicy>) null);
  }

  /** As above, reporting to {@code metrics}, which is closed with the services. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue,
      CipherdMetrics metrics) {
    this(keyStore, poolConfig, limits, blockingThreads, blockingQueue, metrics, (Supplier<AccessPolicy>) null);
  }

  /** With {@code accessPolicy} enforced on every key operation, or none if null. */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue,
      AccessPolicy accessPolicy) {
    this(keyStore, poolConfig, limits, blockingThreads, blockingQueue, new CipherdMetrics(/* keyNames= */ false),
        accessPolicy == null ? null : () -> accessPolicy);
  }

  /**
   * The full wiring: metrics (closed with the services) and the access policy in force at each call
   * (e.g. reloaded from its file), or no policy if null.
   */
  public CipherdServices(
      KeyStore keyStore,
      CipherPoolConfig poolConfig,
      RequestLimits limits,
      int blockingThreads,
      int blockingQueue,
      CipherdMetrics metrics,
      Supplier<AccessPolicy> accessPolicy) {
    Authorizer authorizer = accessPolicy == null
        ? Authorizer.ALLOW_ALL
        : new PolicyAuthorizer(accessPolicy, accessDenials);
    this.callerIdentity = accessPolicy == null
        ? new CallerIdentityInterceptor(BearerTokens.NONE)
        : new CallerIdentityInterceptor(() -> accessPolicy.get().tokens());
    this.keyStore = keyStore;
    this.metrics = metrics;
    this.keyRing = new KeyRing(new MeteredKeyStore(keyStore, metrics.registry()), Clock.systemUTC());
    this.cipherPools = new CipherPools(poolConfig);
    this.blocking = new ThreadPoolExecutor(blockingThreads, blockingThreads, 60, TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(blockingQueue), daemonThreads("cipherd-blocking-"));
    CallDispatcher dispatcher = new CallDispatcher(CallContextExecutor.propagating(blocking));
    CryptoEngine engine = new CryptoEngine(keyRing, new PayloadCipher(cipherPools), authorizer,
        new CryptoMetrics(metrics.registry(), metrics.keyNames()));
    CipherPoolMetrics.bind(cipherPools, metrics.registry());
    KeyCacheMetrics.bind(keyRing, metrics.registry());
    AccessDenialMetrics.bind(accessDenials, metrics.registry());
    this.crypto = new CryptoServiceImpl(engine, dispatcher, limits);
    this.admin = new KeyAdminServiceImpl(keyRing, dispatcher, authorizer);
  }

  /**
   * Adds the crypto, key-admin, health and reflection services to {@code builder}, with caller
   * identity, call metrics and the access log. The interceptor added last runs first: the access
   * log is outermost so it sees every call, including those the identity interceptor refuses, and
   * reads the identity that interceptor put in the call's context when the call closes.
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    return builder
        .intercept(callerIdentity)
        .intercept(new MetricCollectingServerInterceptor(metrics.registry()))
        .intercept(new AccessLogInterceptor())
        .addService(MalformedRequests.guard(crypto.bindService()))
        .addService(MalformedRequests.guard(admin.bindService()))
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

  /** Whether the health status is SERVING (between {@link #markServing} and {@link #markNotServing}). */
  public boolean isServing() {
    return serving;
  }

  /** Whether the key store answers a listing now; for readiness probes, so it may block. */
  public boolean keyStoreAnswers() {
    try {
      keyStore.listKeyNames();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  public CipherdMetrics metrics() {
    return metrics;
  }

  /**
   * Re-reads cached keys' metadata from the store every {@code interval}, so rotations by other
   * replicas are used here within it, and reports the store's reachability as {@link #KEY_STORE_HEALTH}.
   */
  public void refreshKeysEvery(Duration interval) {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(daemonThreads("cipherd-key-refresh-"));
    keyRefresh = scheduler;
    health.setStatus(KEY_STORE_HEALTH, ServingStatus.SERVING);
    scheduler.scheduleWithFixedDelay(() -> {
      boolean reachable;
      try {
        // Listing names also probes the store when no key is cached yet.
        reachable = keyRing.refreshCached() == 0 && keyStore.listKeyNames() != null;
      } catch (RuntimeException e) {
        reachable = false;
      }
      health.setStatus(KEY_STORE_HEALTH, reachable ? ServingStatus.SERVING : ServingStatus.NOT_SERVING);
    }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
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
    if (keyRefresh != null) {
      keyRefresh.shutdownNow();
    }
    blocking.shutdown();
    try {
      blocking.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    blocking.shutdownNow();
    cipherPools.close();
    keyStore.close();
    metrics.close();
  }

  private void setStatus(ServingStatus status) {
    serving = status == ServingStatus.SERVING;
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

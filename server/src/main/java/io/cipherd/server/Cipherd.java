package io.cipherd.server;

import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.server.api.CipherdApi;
import io.cipherd.server.api.ItemStreams;
import io.cipherd.server.api.StatusMapper;
import io.cipherd.server.api.StreamItemRefusal;
import io.cipherd.server.audit.AuditInterceptor;
import io.cipherd.server.audit.AuditTrail;
import io.cipherd.server.audit.AuditedAuthorizer;
import io.cipherd.server.config.ObservabilityConfig;
import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.keys.KeyAdmin;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.UsageLedger;
import io.cipherd.server.logging.AccessLogInterceptor;
import io.cipherd.server.logging.CallContextExecutor;
import io.cipherd.server.logging.PeerErrors;
import io.cipherd.server.metrics.AccessDenialMetrics;
import io.cipherd.server.metrics.AuditMetrics;
import io.cipherd.server.metrics.CipherPoolMetrics;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.metrics.KeyCacheMetrics;
import io.cipherd.server.metrics.KeyStoreHealthMetrics;
import io.cipherd.server.metrics.MeteredKeyStore;
import io.cipherd.server.metrics.StreamMetrics;
import io.cipherd.server.ops.AutoRotation;
import io.cipherd.server.ops.DueDestructions;
import io.cipherd.server.ops.Health;
import io.cipherd.server.ops.KeyMaintenance;
import io.cipherd.server.ops.KeyRefresher;
import io.cipherd.server.ops.UsageMerger;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.AccessDenials;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.BearerTokens;
import io.cipherd.server.security.CallerIdentityInterceptor;
import io.cipherd.server.security.PolicyAuthorizer;
import io.grpc.BindableService;
import io.grpc.ServerBuilder;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micrometer.core.instrument.binder.grpc.MetricCollectingServerInterceptor;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * cipherd wired in one place that {@code Main} and every test use: the key cache and admin over a
 * key store, the cipher pools, the engines, metrics, access policy and health, and the gRPC
 * services over them. {@link #addTo} puts the services on any {@link ServerBuilder}, in-process or
 * Netty; {@link CipherdServer#start} serves them on real ports.
 */
public final class Cipherd implements AutoCloseable {
  private final KeyStore keyStore;
  private final KeyCache keys;
  private final KeyAdmin admin;
  private final CipherPools cipherPools;
  private final ExecutorService blocking;
  private final ItemStreams streams;
  private final Health health = new Health();
  private final CipherdApi api;
  private final CipherdMetrics metrics;
  private final AccessDenials accessDenials = new AccessDenials();
  private final CallerIdentityInterceptor callerIdentity;
  private volatile KeyRefresher keyRefresher;
  private final KeyMaintenance maintenance;
  private final AuditTrail audit;
  private volatile boolean maintaining;

  Cipherd(CipherdBuilder builder) {
    Supplier<AccessPolicy> accessPolicy = builder.accessPolicy;
    Authorizer authorizer =
        accessPolicy == null
            ? Authorizer.ALLOW_ALL
            : new PolicyAuthorizer(accessPolicy, accessDenials);
    this.callerIdentity =
        accessPolicy == null
            ? new CallerIdentityInterceptor(BearerTokens.NONE)
            : new CallerIdentityInterceptor(
                () -> accessPolicy.get().tokens(),
                Set.of(
                    CryptoServiceGrpc.SERVICE_NAME,
                    KeyAdminServiceGrpc.SERVICE_NAME,
                    AuditServiceGrpc.SERVICE_NAME),
                accessDenials,
                StatusMapper::close);
    this.keyStore = builder.keyStore;
    this.metrics =
        builder.metrics != null
            ? builder.metrics
            : new CipherdMetrics(ObservabilityConfig.DEFAULT.metricsKeyNames());
    KeyStore metered = new MeteredKeyStore(keyStore, metrics.registry());
    UsageLedger usage = new UsageLedger(builder.clock, builder.usageCapBlock);
    this.audit =
        builder.audit == null
            ? null
            : AuditMetrics.openTrail(builder.audit, metered, builder.clock, metrics.registry());
    this.keys = new KeyCache(metered, usage);
    this.admin = new KeyAdmin(metered, keys, builder.clock, usage);
    // A current version at its encryption cap is replaced when an encryption finds it there.
    keys.rotateWhenCapped(admin::rotateIfDue);
    this.maintenance =
        new KeyMaintenance(
            new UsageMerger(usage, metered),
            new AutoRotation(usage, keys, admin),
            new DueDestructions(metered, builder.clock, keys::reload, metrics.registry()));
    this.cipherPools = new CipherPools(builder.cipherPools);
    keys.onVersionsWiped(cipherPools::clear);
    this.blocking =
        new ThreadPoolExecutor(
            builder.blockingThreads,
            builder.blockingThreads,
            60,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(builder.blockingQueue),
            daemonThreads("cipherd-blocking-"));
    CryptoEngine engine =
        new CryptoEngine(
            keys,
            cipherPools,
            audit == null ? authorizer : new AuditedAuthorizer(authorizer),
            CryptoObservers.of(metrics, usage, audit, keys, admin.lifecycle(), blocking));
    CipherPoolMetrics.bind(cipherPools, metrics.registry());
    KeyCacheMetrics.bind(keys, metrics.registry());
    AccessDenialMetrics.bind(accessDenials, metrics.registry());
    // What remote peers got wrong on the transport, counted by the log filter and the access log.
    PeerErrors.GLOBAL.bindTo(metrics.registry());
    KeyStoreHealthMetrics.bind(health::isKeyStoreReachable, metrics.registry());
    this.streams = new ItemStreams(builder.streamIdleTimeout);
    StreamMetrics.bind(
        metrics.registry(),
        streams,
        ItemStreams.METHODS,
        ItemStreams::open,
        ItemStreams::closedIdle,
        streams.idleTimeout());
    this.api =
        new CipherdApi(
            engine,
            new AuthorizedKeyAdmin(admin, authorizer),
            CallContextExecutor.propagating(blocking),
            builder.limits,
            builder.maxMessageBytes,
            streams,
            new CipherdApi.AuditAccess(
                audit == null ? null : audit.key(),
                authorizer,
                builder.clock,
                metered,
                audit == null ? null : audit.trailName()));
  }

  /** A builder over {@code keyStore}, which is closed with the server. */
  public static CipherdBuilder builder(KeyStore keyStore) {
    return new CipherdBuilder(keyStore);
  }

  /**
   * Adds the crypto, key-admin, audit, health and reflection services to {@code builder}, with
   * caller identity, call metrics and the access log. The interceptor added last runs first: the
   * access log is outermost so it sees every call, including those the identity interceptor
   * refuses, and reads the identity that interceptor put in the call's context when the call
   * closes. Being first, it also reads each request message once ({@link CipherdApi#readRequest})
   * into the view the audit interceptor and the services inside it share.
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    T server = api.addTo(builder).intercept(callerIdentity);
    if (audit != null) {
      server =
          server.intercept(new AuditInterceptor(audit, StatusMapper::close, StreamItemRefusal::of));
    }
    return server
        .intercept(new MetricCollectingServerInterceptor(metrics.registry()))
        .intercept(new AccessLogInterceptor(CipherdApi::readRequest))
        .addStreamTracerFactory(AccessLogInterceptor.TRANSPORT_STATUS)
        .addService(health.service())
        .addService(ProtoReflectionServiceV1.newInstance())
        .addService(legacyReflection());
  }

  /** The gRPC health statuses. */
  public Health health() {
    return health;
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
   * Re-reads cached keys from the store every {@code interval}, for a store that other replicas
   * share, and reports its reachability as {@link Health#KEY_STORE}.
   */
  public void refreshKeysEvery(Duration interval) {
    keyRefresher = KeyRefresher.start(keys, keyStore, health, interval);
  }

  /** Runs {@link KeyMaintenance} every {@code interval}; closing the server merges once more. */
  public void maintainKeysEvery(Duration interval) {
    maintenance.start(interval);
    maintaining = true;
  }

  /** A {@link KeyMaintenance} run now, due destructions included; returns the keys rotated. */
  public int maintainKeysNow() {
    return maintenance.runNow();
  }

  /** The key cache the crypto path reads. */
  public KeyCache keys() {
    return keys;
  }

  /** Key administration, without access checks: for start-up tasks and tests. */
  public KeyAdmin admin() {
    return admin;
  }

  public CipherPools cipherPools() {
    return cipherPools;
  }

  /**
   * Forgets every key held in memory, together so that no caller clears one only: the key cache's
   * versions (bytes overwritten) and the idle pooled ciphers, which hold their last key schedules.
   */
  public void forgetKeys() {
    keys.invalidateAll();
    cipherPools.clear();
  }

  /** The item streams open now and closed for idleness, for metrics and tests. */
  public ItemStreams streams() {
    return streams;
  }

  /** Calls and items refused by the access policy, for metrics. */
  public AccessDenials accessDenials() {
    return accessDenials;
  }

  @Override
  public void close() {
    health.terminate();
    if (keyRefresher != null) {
      keyRefresher.close();
    }
    // Unscheduled or not, a last usage merge: the counts of encryptions reserved since the last
    // one reach the store, so the caps hold across a restart.
    maintenance.close();
    streams.close();
    blocking.shutdown();
    try {
      blocking.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    blocking.shutdownNow();
    if (audit != null) {
      audit.close();
    }
    forgetKeys();
    cipherPools.close();
    keyStore.close();
    metrics.close();
  }

  /** grpcurl and older tools still ask the v1alpha reflection service. */
  @SuppressWarnings("deprecation")
  private static BindableService legacyReflection() {
    return ProtoReflectionService.newInstance();
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

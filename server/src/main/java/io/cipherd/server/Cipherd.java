package io.cipherd.server;

import io.cipherd.api.v1.AuditServiceGrpc;
import io.cipherd.api.v1.CryptoServiceGrpc;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.SubjectServiceGrpc;
import io.cipherd.server.api.CipherdApi;
import io.cipherd.server.api.ErrorSchemaReflection;
import io.cipherd.server.api.ItemStreams;
import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.api.StatusMapper;
import io.cipherd.server.api.StreamItemRefusal;
import io.cipherd.server.audit.Audit;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.engine.AuthorizedKeyAdmin;
import io.cipherd.server.engine.BatchClockKeyStore;
import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.SubjectAdmin;
import io.cipherd.server.engine.SubjectSweep;
import io.cipherd.server.importjobs.ImportJobs;
import io.cipherd.server.importjobs.ImportJobsConfig;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.AuditStore;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.keystore.vault.VaultKeyStore;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.logging.AccessLogInterceptor;
import io.cipherd.server.logging.CallContextExecutor;
import io.cipherd.server.logging.PeerErrors;
import io.cipherd.server.maintenance.DueDestructions;
import io.cipherd.server.maintenance.DueRotations;
import io.cipherd.server.maintenance.KeyMaintenance;
import io.cipherd.server.maintenance.KeyRefresher;
import io.cipherd.server.maintenance.UsageMerger;
import io.cipherd.server.metrics.AccessDenialMetrics;
import io.cipherd.server.metrics.AuditMetrics;
import io.cipherd.server.metrics.CipherPoolMetrics;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.metrics.KeyCacheMetrics;
import io.cipherd.server.metrics.KeyStoreHealthMetrics;
import io.cipherd.server.metrics.MeteredKeyStore;
import io.cipherd.server.metrics.MeteredSubjectStore;
import io.cipherd.server.metrics.StreamMetrics;
import io.cipherd.server.ops.Health;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.AccessDenials;
import io.cipherd.server.security.AccessPolicy;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.BearerTokens;
import io.cipherd.server.security.CallerIdentityInterceptor;
import io.cipherd.server.security.PolicyAuthorizer;
import io.cipherd.server.subjectkeys.SubjectHasher;
import io.cipherd.server.subjectkeys.SubjectKeys;
import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import io.cipherd.server.subjects.RefusingSubjectStore;
import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.tracing.Tracing;
import io.cipherd.server.usage.ProcessUsageStore;
import io.cipherd.server.usage.UsageLedger;
import io.grpc.BindableService;
import io.grpc.ServerBuilder;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.micrometer.core.instrument.binder.grpc.MetricCollectingServerInterceptor;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
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
  private final Audit audit;
  private final Tracing tracing;
  private final SubjectStore subjectStore;
  private final SubjectKeys subjectKeys;
  private final SubjectSweep subjectSweep;
  private volatile boolean maintaining;

  private Cipherd(Builder builder) {
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
                    AuditServiceGrpc.SERVICE_NAME,
                    SubjectServiceGrpc.SERVICE_NAME),
                accessDenials,
                StatusMapper::close);
    this.keyStore = builder.keyStore;
    this.metrics =
        builder.metrics != null
            ? builder.metrics
            : new CipherdMetrics(ObservabilityConfig.DEFAULT.metricsKeyNames());
    MeteredKeyStore metered = new MeteredKeyStore(keyStore, metrics.registry());
    UsageLedger usage =
        new UsageLedger(metered.usage(builder.usageStore), builder.clock, builder.usageCapBlock);
    AuditStore auditStore = builder.auditStore == null ? null : metered.audit(builder.auditStore);
    this.audit =
        builder.audit == null
            ? Audit.off()
            : Audit.to(
                AuditMetrics.openTrail(
                    builder.audit, auditStore, builder.clock, metrics.registry()));
    this.tracing = builder.tracing;
    KeyStore traced = tracing.keyStore(metered, storeKind(keyStore));
    // A batch that waits for the key store judges its later items when the store answered.
    this.keys = new KeyCache(new BatchClockKeyStore(traced), usage);
    this.admin = new KeyAdmin(traced, keys, builder.clock, usage);
    // A current version at its encryption cap is replaced when an encryption finds it there.
    keys.rotateWhenCapped(admin::rotateIfDue);
    this.subjectStore = builder.subjectStore;
    SubjectStore meteredSubjects = new MeteredSubjectStore(subjectStore, metrics.registry());
    this.subjectKeys =
        new SubjectKeys(
            meteredSubjects, () -> subjectHasher(auditStore), builder.subjectKeys, builder.clock);
    // A version that still wraps live subject keys is refused retirement and destruction.
    admin.lifecycle().countSubjectKeysWith(meteredSubjects::countByWrapVersion);
    this.maintenance =
        new KeyMaintenance(
            new UsageMerger(usage),
            new DueRotations(usage, keys, admin),
            new DueDestructions(metered, builder.clock, keys::reload, metrics.registry()),
            this::sweepSubjectsNow);
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
    subjectKeys.bindTo(metrics.registry());
    CryptoEngine engine =
        new CryptoEngine(
            keys,
            cipherPools,
            audit.authorizing(authorizer),
            CryptoObservers.of(metrics, usage, audit, tracing, keys, admin.lifecycle(), blocking),
            subjectKeys);
    this.subjectSweep = new SubjectSweep(engine, subjectKeys, keys);
    AuthorizedKeyAdmin authorizedAdmin =
        new AuthorizedKeyAdmin(
            admin,
            authorizer,
            new ImportJobs(builder.importJobs, builder.clock),
            builder.allowPlaintextKeyImport);
    // After a RotateKey, the key's subject keys move to the new version in the background.
    authorizedAdmin.afterRotation(
        name -> {
          try {
            blocking.execute(() -> subjectSweep.sweepAll(List.of(name)));
          } catch (RejectedExecutionException busy) {
            // The periodic maintenance sweeps it later.
          }
        });
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
            authorizedAdmin,
            CallContextExecutor.propagating(blocking),
            builder.limits,
            builder.maxMessageBytes,
            streams,
            new CipherdApi.AuditAccess(
                audit.key(), authorizer, builder.clock, auditStore, audit.trailName()),
            new SubjectAdmin(subjectKeys, keys, audit.authorizing(authorizer)),
            audit::erasures);
  }

  /**
   * The subject hasher of the key store's audit key, which every replica shares; a key store that
   * keeps none (tests' in-memory stores) gets a random key for this process's life.
   */
  private static SubjectHasher subjectHasher(AuditStore auditStore) {
    byte[] material;
    if (auditStore != null) {
      material = auditStore.auditKeyMaterial();
    } else {
      material = new byte[32];
      new SecureRandom().nextBytes(material);
    }
    try {
      return new SubjectHasher(material);
    } finally {
      Arrays.fill(material, (byte) 0);
    }
  }

  /**
   * Moves every key's live subject keys to its current version now (as the maintenance does each
   * interval); how many moved.
   */
  public int sweepSubjectsNow() {
    if (subjectSweep == null) {
      return 0;
    }
    return subjectSweep.sweepAll(keyStore.listKeyNames());
  }

  /** The subject keys of subject-bound data: cache, store, erasure. */
  public SubjectKeys subjectKeys() {
    return subjectKeys;
  }

  /** A builder over {@code keyStore}, which is closed with the server. */
  public static Builder builder(KeyStore keyStore) {
    return new Builder(keyStore);
  }

  /**
   * Adds the crypto, key-admin, audit, health and reflection services to {@code builder}, with
   * caller identity, call metrics and the access log. The interceptor added last runs first: the
   * access log is outermost so it sees every call, including those the identity interceptor
   * refuses, and reads the identity that interceptor put in the call's context when the call
   * closes. Being first, it also reads each request message once ({@link CipherdApi#readRequest})
   * into the view the audit interceptor and the services inside it share. With tracing on, its
   * server span is made current outside all of them, and its attributes added inside the access
   * log. Reflection also serves the error schema ({@link ErrorSchemaReflection}), so grpcurl shows
   * a failed call's reason.
   */
  public <T extends ServerBuilder<T>> T addTo(T builder) {
    T server = api.addTo(builder).intercept(callerIdentity);
    T traced =
        tracing.intercept(audit.intercept(server, StatusMapper::close, StreamItemRefusal::of));
    return tracing.addTo(
        traced
            .intercept(new MetricCollectingServerInterceptor(metrics.registry()))
            .intercept(new AccessLogInterceptor(CipherdApi::readRequest))
            .addStreamTracerFactory(AccessLogInterceptor.TRANSPORT_STATUS)
            .addService(health.service())
            .addService(ErrorSchemaReflection.of(ProtoReflectionServiceV1.newInstance()))
            .addService(legacyReflection()));
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
    // Like the keys, the key that names subjects is read before the store can go away.
    if (!(subjectStore instanceof RefusingSubjectStore)) {
      subjectKeys.readHashKey();
    }
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
    audit.close();
    subjectStore.close();
    forgetKeys();
    cipherPools.close();
    keyStore.close();
    metrics.close();
    // Last: the spans of the calls drained above are sent.
    tracing.close();
  }

  /** How key-store spans name the store. */
  private static String storeKind(KeyStore store) {
    if (store instanceof VaultKeyStore) {
      return "vault";
    }
    return store instanceof Pkcs12KeyStore ? "embedded" : store.getClass().getSimpleName();
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

  /**
   * The settings of a {@link Cipherd}, from {@link Cipherd#builder}. Validates each setting as it
   * is given; the defaults are those of the command line.
   */
  public static final class Builder {
    private final KeyStore keyStore;
    private final UsageStore usageStore;
    private final AuditStore auditStore;
    private RequestLimits limits = ServerConfig.DEFAULT_LIMITS;
    private int maxMessageBytes = ServerConfig.DEFAULT_MAX_MESSAGE_BYTES;
    private CipherPoolConfig cipherPools = CipherPoolConfig.DEFAULT;
    private int blockingThreads = ServerConfig.DEFAULT_BLOCKING_THREADS;
    private int blockingQueue = ServerConfig.DEFAULT_BLOCKING_QUEUE;
    private Duration streamIdleTimeout = ServerConfig.DEFAULT_STREAM_IDLE_TIMEOUT;
    private CipherdMetrics metrics;
    private Supplier<AccessPolicy> accessPolicy;
    private Clock clock = Clock.systemUTC();
    private AuditConfig audit;
    private long usageCapBlock = UsageLedger.DEFAULT_CAP_BLOCK;
    private Tracing tracing = Tracing.off();
    private SubjectStore subjectStore;
    private SubjectKeysConfig subjectKeys = SubjectKeysConfig.DEFAULT;
    private ImportJobsConfig importJobs = ImportJobsConfig.DEFAULT;
    private boolean allowPlaintextKeyImport;

    private Builder(KeyStore keyStore) {
      this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
      // What else the store keeps: usage totals (else this process keeps them, for its caps), the
      // audit key and heads (which an audit trail needs; build() checks).
      this.usageStore = keyStore instanceof UsageStore usage ? usage : new ProcessUsageStore();
      this.auditStore = keyStore instanceof AuditStore audit ? audit : null;
    }

    /** The limits, message size, pools, blocking pool and stream idle timeout of {@code config}. */
    public Builder config(ServerConfig config) {
      return limits(config.limits())
          .maxMessageBytes(config.maxInboundMessageBytes())
          .cipherPools(config.cipherPools())
          .blockingThreads(config.blockingThreads())
          .blockingQueue(config.blockingQueue())
          .streamIdleTimeout(config.streamIdleTimeout());
    }

    public Builder limits(RequestLimits limits) {
      this.limits = Objects.requireNonNull(limits, "limits");
      return this;
    }

    /**
     * The transport's largest request, which the server it is served by must use too: it decides
     * the largest plaintext encrypted, so that every ciphertext fits a request to decrypt it.
     */
    public Builder maxMessageBytes(int bytes) {
      if (bytes < 1024) {
        throw new IllegalArgumentException("max message size must be at least 1024 bytes");
      }
      this.maxMessageBytes = bytes;
      return this;
    }

    public Builder cipherPools(CipherPoolConfig cipherPools) {
      this.cipherPools = Objects.requireNonNull(cipherPools, "cipherPools");
      return this;
    }

    /** Threads for work that may block on the key store (cache misses, admin calls). */
    public Builder blockingThreads(int threads) {
      this.blockingThreads = ServerConfig.checkAtLeastOne(threads, "blocking threads");
      return this;
    }

    /** Calls that may wait for a blocking thread before RESOURCE_EXHAUSTED. */
    public Builder blockingQueue(int queue) {
      this.blockingQueue = ServerConfig.checkAtLeastOne(queue, "blocking queue");
      return this;
    }

    /** How long an item stream may receive no item before the server closes it. */
    public Builder streamIdleTimeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("stream idle timeout must be positive, got " + timeout);
      }
      this.streamIdleTimeout = timeout;
      return this;
    }

    /**
     * How many encryptions of one key version this replica may reserve between usage merges ({@code
     * --usage-cap-block}; at most a 64th of the version's limit, at least 1): replicas together
     * pass a version's cap by at most (replicas − 1) such blocks.
     */
    public Builder usageCapBlock(long block) {
      if (block < 1) {
        throw new IllegalArgumentException("usage cap block must be at least 1, got " + block);
      }
      this.usageCapBlock = block;
      return this;
    }

    /** Where metrics go; closed with the server. Default: a registry without key names. */
    public Builder metrics(CipherdMetrics metrics) {
      this.metrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /**
     * The access policy in force at each call (e.g. reloaded from its file); none by default: all
     * allowed.
     */
    public Builder accessPolicy(Supplier<AccessPolicy> accessPolicy) {
      this.accessPolicy = accessPolicy;
      return this;
    }

    /** A fixed access policy. */
    public Builder accessPolicy(AccessPolicy accessPolicy) {
      Objects.requireNonNull(accessPolicy, "accessPolicy");
      return accessPolicy(() -> accessPolicy);
    }

    /** The clock stamped on new key versions, and by which scheduled destructions fall due. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Audits every call to the trail {@code audit} describes; null (the default): no audit. */
    public Builder audit(AuditConfig audit) {
      this.audit = audit;
      return this;
    }

    /**
     * Traces calls through {@code tracing} (closed with the server); off by default. Its exemplars
     * must be those of the {@link #metrics} given.
     */
    public Builder tracing(Tracing tracing) {
      this.tracing = Objects.requireNonNull(tracing, "tracing");
      return this;
    }

    /**
     * Where subject keys live (closed with the server); required, so that no server keeps them in
     * memory by accident: {@code Main} opens the configured store or refuses subject calls, and
     * tests pass a {@code MemorySubjectStore} themselves.
     */
    public Builder subjectStore(SubjectStore subjectStore) {
      this.subjectStore = Objects.requireNonNull(subjectStore, "subjectStore");
      return this;
    }

    /** How long import jobs live and how many may be live at once. */
    public Builder importJobs(ImportJobsConfig importJobs) {
      this.importJobs = Objects.requireNonNull(importJobs, "importJobs");
      return this;
    }

    /**
     * Whether ImportKey takes key material (and MySQL passphrases) in the clear, as well as wrapped
     * for an import job ({@code --allow-plaintext-key-import}); off by default: material comes in
     * wrapped or not at all.
     */
    public Builder allowPlaintextKeyImport(boolean allow) {
      this.allowPlaintextKeyImport = allow;
      return this;
    }

    /** How subject keys are cached and how fast each caller may create them. */
    public Builder subjectKeys(SubjectKeysConfig subjectKeys) {
      this.subjectKeys = Objects.requireNonNull(subjectKeys, "subjectKeys");
      return this;
    }

    public Cipherd build() {
      if (subjectStore == null) {
        throw new IllegalStateException("no subject store: give one with subjectStore(...)");
      }
      if (audit != null && auditStore == null) {
        throw new IllegalStateException(
            keyStore + " keeps no audit key or heads for an audit trail");
      }
      return new Cipherd(this);
    }
  }
}

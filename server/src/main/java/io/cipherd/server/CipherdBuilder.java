package io.cipherd.server;

import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.config.ServerConfig;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.UsageLedger;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.security.AccessPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The settings of a {@link Cipherd}, from {@link Cipherd#builder}. Validates each setting as it is
 * given; the defaults are those of the command line.
 */
public final class CipherdBuilder {
  // Read by Cipherd's constructor.
  final KeyStore keyStore;
  RequestLimits limits = ServerConfig.DEFAULT_LIMITS;
  int maxMessageBytes = ServerConfig.DEFAULT_MAX_MESSAGE_BYTES;
  CipherPoolConfig cipherPools = CipherPoolConfig.DEFAULT;
  int blockingThreads = ServerConfig.DEFAULT_BLOCKING_THREADS;
  int blockingQueue = ServerConfig.DEFAULT_BLOCKING_QUEUE;
  Duration streamIdleTimeout = ServerConfig.DEFAULT_STREAM_IDLE_TIMEOUT;
  CipherdMetrics metrics;
  Supplier<AccessPolicy> accessPolicy;
  Clock clock = Clock.systemUTC();
  AuditConfig audit;
  long usageCapBlock = UsageLedger.DEFAULT_CAP_BLOCK;

  CipherdBuilder(KeyStore keyStore) {
    this.keyStore = Objects.requireNonNull(keyStore, "keyStore");
  }

  /** The limits, message size, pools, blocking pool and stream idle timeout of {@code config}. */
  public CipherdBuilder config(ServerConfig config) {
    return limits(config.limits())
        .maxMessageBytes(config.maxInboundMessageBytes())
        .cipherPools(config.cipherPools())
        .blockingThreads(config.blockingThreads())
        .blockingQueue(config.blockingQueue())
        .streamIdleTimeout(config.streamIdleTimeout());
  }

  public CipherdBuilder limits(RequestLimits limits) {
    this.limits = Objects.requireNonNull(limits, "limits");
    return this;
  }

  /**
   * The transport's largest request, which the server it is served by must use too: it decides the
   * largest plaintext encrypted, so that every ciphertext fits a request to decrypt it.
   */
  public CipherdBuilder maxMessageBytes(int bytes) {
    if (bytes < 1024) {
      throw new IllegalArgumentException("max message size must be at least 1024 bytes");
    }
    this.maxMessageBytes = bytes;
    return this;
  }

  public CipherdBuilder cipherPools(CipherPoolConfig cipherPools) {
    this.cipherPools = Objects.requireNonNull(cipherPools, "cipherPools");
    return this;
  }

  /** Threads for work that may block on the key store (cache misses, admin calls). */
  public CipherdBuilder blockingThreads(int threads) {
    this.blockingThreads = ServerConfig.checkAtLeastOne(threads, "blocking threads");
    return this;
  }

  /** Calls that may wait for a blocking thread before RESOURCE_EXHAUSTED. */
  public CipherdBuilder blockingQueue(int queue) {
    this.blockingQueue = ServerConfig.checkAtLeastOne(queue, "blocking queue");
    return this;
  }

  /** How long an item stream may receive no item before the server closes it. */
  public CipherdBuilder streamIdleTimeout(Duration timeout) {
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("stream idle timeout must be positive, got " + timeout);
    }
    this.streamIdleTimeout = timeout;
    return this;
  }

  /**
   * How many encryptions of one key version this replica may reserve between usage merges ({@code
   * --usage-cap-block}; at most a 64th of the version's limit, at least 1): replicas together pass
   * a version's cap by at most (replicas − 1) such blocks.
   */
  public CipherdBuilder usageCapBlock(long block) {
    if (block < 1) {
      throw new IllegalArgumentException("usage cap block must be at least 1, got " + block);
    }
    this.usageCapBlock = block;
    return this;
  }

  /** Where metrics go; closed with the server. Default: a registry without key names. */
  public CipherdBuilder metrics(CipherdMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    return this;
  }

  /**
   * The access policy in force at each call (e.g. reloaded from its file); none by default: all
   * allowed.
   */
  public CipherdBuilder accessPolicy(Supplier<AccessPolicy> accessPolicy) {
    this.accessPolicy = accessPolicy;
    return this;
  }

  /** A fixed access policy. */
  public CipherdBuilder accessPolicy(AccessPolicy accessPolicy) {
    Objects.requireNonNull(accessPolicy, "accessPolicy");
    return accessPolicy(() -> accessPolicy);
  }

  /** The clock stamped on new key versions, and by which scheduled destructions fall due. */
  public CipherdBuilder clock(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** Audits every call to the trail {@code audit} describes; null (the default): no audit. */
  public CipherdBuilder audit(AuditConfig audit) {
    this.audit = audit;
    return this;
  }

  public Cipherd build() {
    return new Cipherd(this);
  }
}

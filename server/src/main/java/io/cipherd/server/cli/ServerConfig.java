package io.cipherd.server.cli;

import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.security.TlsConfig;
import io.cipherd.server.subjects.SubjectStoreConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything a cipherd server is configured with, validated on construction; {@link #builder()}
 * starts from the command line's defaults.
 *
 * @param host address to listen on; plaintext is allowed only on loopback unless {@code insecure}
 * @param port gRPC port; 0 picks a free one
 * @param insecure allow plaintext gRPC on a non-loopback address
 * @param dataDir where the embedded key store keeps its files
 * @param keyStorePassword the embedded key store's password (from CIPHERD_KEYSTORE_PASSWORD)
 * @param maxInboundMessageBytes largest request message accepted
 * @param limits request-shape limits such as max batch items
 * @param cipherPools bounds of the per-mode cipher pools
 * @param blockingThreads threads for work that may block on the key store
 * @param blockingQueue calls that may wait for a blocking thread before RESOURCE_EXHAUSTED
 * @param shutdownGrace how long in-flight calls may take to finish on shutdown
 * @param connections what one client connection may hold and for how long
 * @param streamIdleTimeout how long an item stream may go without receiving an item before it is
 *     closed
 * @param demoKey name of a gcm key to create on start if it does not exist, or empty
 * @param tls the gRPC port's TLS files, or {@link TlsConfig#NONE} for plaintext
 * @param accessPolicy the YAML access policy file, or null to allow every caller everything
 * @param subjectStore where subject keys live: PostgreSQL, or the embedded file in {@code dataDir}
 */
public record ServerConfig(
    String host,
    int port,
    boolean insecure,
    Path dataDir,
    char[] keyStorePassword,
    int maxInboundMessageBytes,
    RequestLimits limits,
    CipherPoolConfig cipherPools,
    int blockingThreads,
    int blockingQueue,
    Duration shutdownGrace,
    ConnectionLimits connections,
    Duration streamIdleTimeout,
    String demoKey,
    TlsConfig tls,
    Path accessPolicy,
    SubjectStoreConfig subjectStore) {
  public static final RequestLimits DEFAULT_LIMITS = new RequestLimits(4096);
  public static final int DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;
  public static final int DEFAULT_BLOCKING_THREADS = 8;
  public static final int DEFAULT_BLOCKING_QUEUE = 1024;
  public static final Duration DEFAULT_STREAM_IDLE_TIMEOUT = Duration.ofSeconds(60);

  public ServerConfig {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host is required");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    if (maxInboundMessageBytes < 1024) {
      throw new IllegalArgumentException("max inbound message size must be at least 1024 bytes");
    }
    checkAtLeastOne(blockingThreads, "blocking threads");
    checkAtLeastOne(blockingQueue, "blocking queue");
    if (limits == null || cipherPools == null || shutdownGrace == null || demoKey == null) {
      throw new IllegalArgumentException(
          "limits, cipher pools, shutdown grace and demo key are required");
    }
    if (shutdownGrace.isNegative()) {
      throw new IllegalArgumentException("shutdown grace must not be negative");
    }
    if (connections == null) {
      throw new IllegalArgumentException("connection limits are required");
    }
    if (streamIdleTimeout == null || streamIdleTimeout.isNegative() || streamIdleTimeout.isZero()) {
      throw new IllegalArgumentException(
          "stream idle timeout must be positive, got " + streamIdleTimeout);
    }
    if (tls == null) {
      throw new IllegalArgumentException("tls must not be null; use TlsConfig.NONE for plaintext");
    }
    if (subjectStore == null) {
      throw new IllegalArgumentException("the subject store's configuration is required");
    }
  }

  /** A builder with the command line's defaults: 127.0.0.1:50051, plaintext, ./data, no policy. */
  public static Builder builder() {
    return new Builder();
  }

  /** {@code value}, if it is at least 1; throws naming {@code what} otherwise. */
  public static int checkAtLeastOne(int value, String what) {
    if (value < 1) {
      throw new IllegalArgumentException(what + " must be at least 1, got " + value);
    }
    return value;
  }

  @Override
  public String toString() {
    return "ServerConfig[host="
        + host
        + ", port="
        + port
        + ", insecure="
        + insecure
        + ", dataDir="
        + dataDir
        + ", maxInboundMessageBytes="
        + maxInboundMessageBytes
        + ", "
        + limits
        + ", "
        + cipherPools
        + ", blockingThreads="
        + blockingThreads
        + ", blockingQueue="
        + blockingQueue
        + ", shutdownGrace="
        + shutdownGrace
        + ", "
        + connections
        + ", streamIdleTimeout="
        + streamIdleTimeout
        + ", demoKey="
        + demoKey
        + ", "
        + tls
        + ", accessPolicy="
        + accessPolicy
        + ", "
        + subjectStore
        + "]";
  }

  /** Builds a {@link ServerConfig}; {@link #build()} validates the whole. */
  public static final class Builder {
    private String host = "127.0.0.1";
    private int port = 50051;
    private boolean insecure;
    private Path dataDir = Path.of("data");
    private char[] keyStorePassword = new char[0];
    private int maxInboundMessageBytes = DEFAULT_MAX_MESSAGE_BYTES;
    private RequestLimits limits = DEFAULT_LIMITS;
    private CipherPoolConfig cipherPools = CipherPoolConfig.DEFAULT;
    private int blockingThreads = DEFAULT_BLOCKING_THREADS;
    private int blockingQueue = DEFAULT_BLOCKING_QUEUE;
    private Duration shutdownGrace = Duration.ofSeconds(20);
    private ConnectionLimits connections = ConnectionLimits.DEFAULT;
    private Duration streamIdleTimeout = DEFAULT_STREAM_IDLE_TIMEOUT;
    private String demoKey = "";
    private TlsConfig tls = TlsConfig.NONE;
    private Path accessPolicy;
    private SubjectStoreConfig subjectStore;

    private Builder() {}

    public Builder host(String host) {
      this.host = host;
      return this;
    }

    public Builder port(int port) {
      this.port = port;
      return this;
    }

    public Builder insecure(boolean insecure) {
      this.insecure = insecure;
      return this;
    }

    public Builder dataDir(Path dataDir) {
      this.dataDir = dataDir;
      return this;
    }

    public Builder keyStorePassword(char[] keyStorePassword) {
      this.keyStorePassword = keyStorePassword;
      return this;
    }

    public Builder maxInboundMessageBytes(int bytes) {
      this.maxInboundMessageBytes = bytes;
      return this;
    }

    public Builder limits(RequestLimits limits) {
      this.limits = limits;
      return this;
    }

    public Builder cipherPools(CipherPoolConfig cipherPools) {
      this.cipherPools = cipherPools;
      return this;
    }

    public Builder blockingThreads(int threads) {
      this.blockingThreads = threads;
      return this;
    }

    public Builder blockingQueue(int queue) {
      this.blockingQueue = queue;
      return this;
    }

    public Builder shutdownGrace(Duration grace) {
      this.shutdownGrace = grace;
      return this;
    }

    public Builder connections(ConnectionLimits connections) {
      this.connections = connections;
      return this;
    }

    public Builder streamIdleTimeout(Duration timeout) {
      this.streamIdleTimeout = timeout;
      return this;
    }

    public Builder demoKey(String demoKey) {
      this.demoKey = demoKey;
      return this;
    }

    public Builder tls(TlsConfig tls) {
      this.tls = tls;
      return this;
    }

    public Builder accessPolicy(Path accessPolicy) {
      this.accessPolicy = accessPolicy;
      return this;
    }

    /** Where subject keys live; by default the embedded file in the data folder. */
    public Builder subjectStore(SubjectStoreConfig subjectStore) {
      this.subjectStore = subjectStore;
      return this;
    }

    public ServerConfig build() {
      return new ServerConfig(
          host,
          port,
          insecure,
          dataDir,
          keyStorePassword,
          maxInboundMessageBytes,
          limits,
          cipherPools,
          blockingThreads,
          blockingQueue,
          shutdownGrace,
          connections,
          streamIdleTimeout,
          demoKey,
          tls,
          accessPolicy,
          subjectStore != null
              ? subjectStore
              : new SubjectStoreConfig(
                  null, null, null, SubjectStoreOptions.DEFAULT_POOL_SIZE, dataDir));
    }
  }
}

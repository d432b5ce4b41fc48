package io.cipherd.server.config;

import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.crypto.CipherPoolConfig;
import io.cipherd.server.security.TlsConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything a cipherd server is configured with, validated on construction.
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
 * @param demoKey name of a gcm key to create on start if it does not exist, or empty
 * @param tls the gRPC port's TLS files, or {@link TlsConfig#NONE} for plaintext
 * @param accessPolicy the YAML access policy file, or null to allow every caller everything
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
    String demoKey,
    TlsConfig tls,
    Path accessPolicy) {
  /** Plaintext, no access policy. */
  public ServerConfig(String host, int port, boolean insecure, Path dataDir, char[] keyStorePassword,
      int maxInboundMessageBytes, RequestLimits limits, CipherPoolConfig cipherPools, int blockingThreads,
      int blockingQueue, Duration shutdownGrace, String demoKey) {
    this(host, port, insecure, dataDir, keyStorePassword, maxInboundMessageBytes, limits, cipherPools,
        blockingThreads, blockingQueue, shutdownGrace, demoKey, TlsConfig.NONE, null);
  }

  public ServerConfig {
    if (tls == null) {
      throw new IllegalArgumentException("tls must not be null; use TlsConfig.NONE for plaintext");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
    }
    if (maxInboundMessageBytes < 1024) {
      throw new IllegalArgumentException("max inbound message size must be at least 1024 bytes");
    }
    if (blockingThreads < 1 || blockingQueue < 1) {
      throw new IllegalArgumentException("blocking threads and queue must be at least 1");
    }
  }

  @Override
  public String toString() {
    return "ServerConfig[host=" + host + ", port=" + port + ", insecure=" + insecure + ", dataDir=" + dataDir
        + ", maxInboundMessageBytes=" + maxInboundMessageBytes + ", " + limits + ", " + cipherPools
        + ", blockingThreads=" + blockingThreads + ", blockingQueue=" + blockingQueue
        + ", shutdownGrace=" + shutdownGrace + ", demoKey=" + demoKey + ", " + tls
        + ", accessPolicy=" + accessPolicy + "]";
  }
}

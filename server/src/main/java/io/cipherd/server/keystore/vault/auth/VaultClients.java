package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.Vault;
import io.github.jopenlibs.vault.VaultConfig;
import io.github.jopenlibs.vault.VaultException;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * Builds vault-java-driver clients that all share cipherd's timeouts and bounded retries.
 *
 * <p>Clients use KV engine version 1 addressing, meaning paths are sent exactly as given: the key
 * store addresses KV v2's {@code data/} and {@code metadata/} endpoints itself, because the
 * driver's v2 path rewriting cannot set custom metadata or {@code max_versions}.
 *
 * <p>All clients share one {@link HttpClient} (its connections and threads); without it the driver
 * builds a new HttpClient for every request. TLS therefore uses the JVM's default trust store.
 */
public final class VaultClients implements AutoCloseable {
  private final String address;
  private final int openTimeoutSeconds;
  private final int readTimeoutSeconds;
  private final int maxRetries;
  private final int retryIntervalMillis;
  private final HttpClient http;

  public VaultClients(
      String address,
      Duration openTimeout,
      Duration readTimeout,
      int maxRetries,
      Duration retryInterval) {
    this.address = address;
    this.openTimeoutSeconds = (int) Math.max(1, openTimeout.toSeconds());
    this.readTimeoutSeconds = (int) Math.max(1, readTimeout.toSeconds());
    this.maxRetries = maxRetries;
    this.retryIntervalMillis = (int) retryInterval.toMillis();
    this.http =
        HttpClient.newBuilder()
            .version(
                HttpClient.Version.HTTP_1_1) // as the driver does: Vault agents do not proxy h2c
            .connectTimeout(Duration.ofSeconds(openTimeoutSeconds))
            .build();
  }

  /** Vault's address, for messages. */
  public String address() {
    return address;
  }

  /** A client that sends {@code token}. */
  public Vault client(String token) {
    return create(settings().token(token));
  }

  /** A client that sends no token: for logins. */
  public Vault loginClient() {
    return create(settings());
  }

  private VaultConfig settings() {
    return new VaultConfig()
        .address(address)
        .openTimeout(openTimeoutSeconds)
        .readTimeout(readTimeoutSeconds)
        .engineVersion(1)
        .httpClient(http);
  }

  private Vault create(VaultConfig config) {
    try {
      return Vault.create(config.build(), 1).withRetries(maxRetries, retryIntervalMillis);
    } catch (VaultException e) {
      throw new IllegalArgumentException(
          "invalid Vault client settings for " + address + ": " + e.getMessage(), e);
    }
  }

  /** Closes the shared HTTP client; clients built earlier stop working. */
  @Override
  public void close() {
    http.close();
  }
}

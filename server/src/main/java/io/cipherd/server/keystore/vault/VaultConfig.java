package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.vault.auth.VaultAuth;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How cipherd reaches its keys in Vault.
 *
 * @param address Vault's base URL, such as {@code https://vault.example:8200}
 * @param mount the KV v2 mount path, such as {@code secret}
 * @param prefix the folder under the mount that holds one secret per key, such as {@code
 *     cipherd/keys}
 * @param auth how to obtain a token
 * @param openTimeout longest wait to connect, whole seconds (the driver's unit)
 * @param readTimeout longest wait for a response, whole seconds
 * @param maxRetries retries after a failed call (connection error, 5xx); 4xx are never retried
 * @param retryInterval pause between retries
 * @param refreshInterval how often cached key metadata is re-read, so rotations by other replicas
 *     are seen
 */
public record VaultConfig(
    URI address,
    String mount,
    String prefix,
    VaultAuth auth,
    Duration openTimeout,
    Duration readTimeout,
    int maxRetries,
    Duration retryInterval,
    Duration refreshInterval) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);
  public static final int DEFAULT_MAX_RETRIES = 2;
  public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofMillis(250);
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(30);

  public VaultConfig {
    Objects.requireNonNull(
        address, "Vault address is required (--vault-address, CIPHERD_VAULT_ADDRESS)");
    if (address.getScheme() == null || !address.getScheme().startsWith("http")) {
      throw new IllegalArgumentException("Vault address must be an http(s) URL, got " + address);
    }
    mount = trimSlashes(Objects.requireNonNull(mount, "mount"));
    prefix = trimSlashes(Objects.requireNonNull(prefix, "prefix"));
    if (mount.isEmpty() || prefix.isEmpty()) {
      throw new IllegalArgumentException("Vault mount and prefix must not be empty");
    }
    Objects.requireNonNull(auth, "auth");
    if (openTimeout.toSeconds() < 1 || readTimeout.toSeconds() < 1) {
      throw new IllegalArgumentException("Vault timeouts must be at least 1s");
    }
    if (maxRetries < 0 || maxRetries > 10) {
      throw new IllegalArgumentException(
          "Vault retries must be between 0 and 10, got " + maxRetries);
    }
    if (retryInterval.isNegative() || refreshInterval.isNegative() || refreshInterval.isZero()) {
      throw new IllegalArgumentException("Vault retry and refresh intervals must be positive");
    }
  }

  /** A configuration with default timeouts, retries and refresh interval. */
  public static VaultConfig withDefaults(URI address, String mount, String prefix, VaultAuth auth) {
    return new VaultConfig(
        address,
        mount,
        prefix,
        auth,
        DEFAULT_TIMEOUT,
        DEFAULT_TIMEOUT,
        DEFAULT_MAX_RETRIES,
        DEFAULT_RETRY_INTERVAL,
        DEFAULT_REFRESH_INTERVAL);
  }

  /** The address without a trailing slash, as the driver wants it. */
  public String addressText() {
    String text = address.toString();
    return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
  }

  private static String trimSlashes(String path) {
    String trimmed = path.strip();
    while (trimmed.startsWith("/")) {
      trimmed = trimmed.substring(1);
    }
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    return trimmed;
  }
}

package io.cipherd.server.keystore.vault.auth;

import java.time.Duration;
import java.util.Objects;

/**
 * A Vault token and how long it lives.
 *
 * @param value the token; secret, so left out of {@link #toString()}
 * @param ttl time left; zero for a token that never expires
 * @param renewable whether renew-self may extend it
 */
public record VaultToken(String value, Duration ttl, boolean renewable) {
  public VaultToken {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(ttl, "ttl");
    if (value.isBlank()) {
      throw new IllegalArgumentException("Vault token is empty");
    }
  }

  /** Whether the token expires and so needs renewing or a new login. */
  public boolean expires() {
    return !ttl.isZero() && !ttl.isNegative();
  }

  @Override
  public String toString() {
    return "VaultToken[ttl=" + ttl + ", renewable=" + renewable + ", value=<redacted>]";
  }
}

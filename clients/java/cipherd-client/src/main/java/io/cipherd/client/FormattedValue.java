package io.cipherd.client;

import java.util.Objects;

/**
 * A format-preserving ciphertext and the key version that made it: store {@code keyVersion} beside
 * {@code value}. FF1 output carries no header and cannot tell a wrong version from a right one (it
 * decrypts to a wrong value of the right shape), so the two travel together. {@code keyVersion} 0
 * is only for a key whose format reserves a version prefix; the server refuses it for any other.
 */
public record FormattedValue(String value, int keyVersion) {
  public FormattedValue {
    Objects.requireNonNull(value, "value");
    if (keyVersion < 0) {
      throw new IllegalArgumentException(
          "keyVersion must be the version encrypt returned, not negative");
    }
  }
}

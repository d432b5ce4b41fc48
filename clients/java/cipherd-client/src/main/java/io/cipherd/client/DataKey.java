package io.cipherd.client;

import java.util.Optional;

/**
 * A data key: the key bytes (empty when omitted) and the same key wrapped by the named key, a
 * ciphertext that decrypt unwraps. Use the plaintext key, then drop it; keep only the wrapped one.
 */
public record DataKey(Optional<byte[]> plaintextKey, String wrappedKey, int keyVersion) {
  @Override
  public String toString() {
    return "DataKey[keyVersion=" + keyVersion + "]";
  }
}

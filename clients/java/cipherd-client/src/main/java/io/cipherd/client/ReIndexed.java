package io.cipherd.client;

/**
 * A ciphertext's plaintext indexed inside the server: the blind index under the index key's current
 * version {@code keyVersion}, and the version the ciphertext was under.
 */
public record ReIndexed(byte[] index, int keyVersion, int sourceKeyVersion) {
  @Override
  public String toString() {
    return "ReIndexed[keyVersion=" + keyVersion + ", sourceKeyVersion=" + sourceKeyVersion + "]";
  }
}

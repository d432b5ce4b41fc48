package io.cipherd.server.engine;

/**
 * A format-preserving value the engine made: a ciphertext, a plaintext or a mask.
 *
 * @param value the value (a plaintext is secret: never log it)
 * @param keyVersion the version that made or read it
 * @param sourceVersion for a re-encryption, the version the old value was under; else 0
 */
public record Formatted(String value, int keyVersion, int sourceVersion) {
  @Override
  public String toString() {
    return "Formatted[v" + keyVersion + ", " + value.length() + " chars]";
  }
}

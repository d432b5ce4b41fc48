package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * A decrypted ciphertext.
 *
 * @param header the key version and mode that decrypted it
 * @param plaintext the secret bytes; never logged
 */
public record Decrypted(EnvelopeHeader header, byte[] plaintext) {
  @Override
  public String toString() {
    return "Decrypted[" + header + ", " + plaintext.length + " bytes]";
  }
}

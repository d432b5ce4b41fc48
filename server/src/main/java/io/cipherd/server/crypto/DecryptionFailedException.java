package io.cipherd.server.crypto;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A well-formed ciphertext that did not decrypt: wrong key, context or tampered bytes. It says only
 * that decryption failed, so it cannot be used as an oracle.
 */
public final class DecryptionFailedException extends CipherdException {
  public DecryptionFailedException() {
    super(ErrorKind.DECRYPTION_FAILED, "decryption failed");
  }
}

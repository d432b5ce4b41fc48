package io.cipherd.server.crypto.envelope;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A ciphertext that is not in the {@code <NAME/vVERSION:MODE>BASE64} format; the message says what
 * is wrong.
 */
public final class InvalidCiphertextException extends CipherdException {
  public InvalidCiphertextException(String problem) {
    super(ErrorKind.INVALID_CIPHERTEXT, "invalid ciphertext: " + problem);
  }
}

package io.cipherd.server.crypto;

import io.cipherd.server.CipherdException;

/** A ciphertext that is not in the {@code <NAME/vVERSION:MODE>BASE64} format; the message says what is wrong. */
public final class InvalidCiphertextException extends CipherdException {
  public InvalidCiphertextException(String problem) {
    super("invalid ciphertext: " + problem, /* withStackTrace= */ false);
  }
}

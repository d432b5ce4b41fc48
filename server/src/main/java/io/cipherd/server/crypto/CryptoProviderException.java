package io.cipherd.server.crypto;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * The JCE refused an operation that should have worked: a bug or a broken provider, not bad input.
 */
public final class CryptoProviderException extends CipherdException {
  /** The provider failed running {@code transformation}, e.g. {@code AES/GCM/NoPadding}. */
  public CryptoProviderException(String transformation, Throwable cause) {
    // The cause's message comes from the JCE and never holds key or data bytes; keep it for
    // operators.
    super(
        ErrorKind.INTERNAL, transformation + " failed: " + cause.getClass().getSimpleName(), cause);
  }
}

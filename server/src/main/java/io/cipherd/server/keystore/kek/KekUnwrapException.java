package io.cipherd.server.keystore.kek;

/**
 * A wrapped blob did not unwrap: changed, wrapped by another KEK, or moved from another key or
 * version (its associated data differs). The message names the place, never the bytes.
 */
public final class KekUnwrapException extends IllegalStateException {
  public KekUnwrapException(String message) {
    super(message);
  }

  public KekUnwrapException(String message, Throwable cause) {
    super(message, cause);
  }
}

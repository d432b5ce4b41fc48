package io.cipherd.server;

/**
 * The root of cipherd's domain errors; {@code api.StatusMapper} turns each subclass into one gRPC status.
 *
 * <p>Messages are shown to callers, so they must never contain plaintext, key bytes or a ciphertext.
 */
public abstract class CipherdException extends RuntimeException {
  protected CipherdException(String message) {
    super(message);
  }

  protected CipherdException(String message, Throwable cause) {
    super(message, cause);
  }

  /** For errors that callers cause routinely (bad input, failed decryption): no stack trace to fill. */
  protected CipherdException(String message, boolean withStackTrace) {
    super(message, null, false, withStackTrace);
  }
}

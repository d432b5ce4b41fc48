package io.cipherd.server.errors;

/**
 * The root of cipherd's domain errors. Each carries its {@link ErrorKind}, which alone decides the
 * gRPC status and the metrics outcome, so a new subclass needs no other table to be mapped.
 *
 * <p>Messages are shown to callers, so they must never contain plaintext, key bytes or a
 * ciphertext.
 */
public abstract class CipherdException extends RuntimeException {
  private final ErrorKind kind;

  protected CipherdException(ErrorKind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /**
   * For errors that callers cause routinely (bad input, failed decryption): no stack trace to fill.
   */
  protected CipherdException(ErrorKind kind, String message) {
    super(message, null, false, false);
    this.kind = kind;
  }

  /** What went wrong, for the status mapper and metrics. */
  public final ErrorKind kind() {
    return kind;
  }
}

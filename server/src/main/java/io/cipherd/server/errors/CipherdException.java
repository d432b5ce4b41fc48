package io.cipherd.server.errors;

import java.util.Map;

/**
 * The root of cipherd's domain errors. Each carries its {@link ErrorKind}, which alone decides the
 * gRPC status and the metrics outcome, so a new subclass needs no other table to be mapped.
 *
 * <p>Messages are shown to callers, so they must never contain plaintext, key bytes or a
 * ciphertext.
 */
public abstract class CipherdException extends RuntimeException {
  private final ErrorKind kind;
  private Map<String, String> details = Map.of();

  protected CipherdException(ErrorKind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /**
   * For errors that callers cause routinely (bad input, failed decryption): no stack trace to fill.
   */
  protected CipherdException(ErrorKind kind, String message) {
    super(
        message,
        /* cause= */ null,
        /* enableSuppression= */ false,
        /* writableStackTrace= */ false);
    this.kind = kind;
  }

  /**
   * Names the key (and version) this error is about, for the ErrorInfo metadata of the status. Only
   * names a caller already sent and the server validated belong here: a key name the caller gave is
   * no secret to that caller, a key's bytes or a ciphertext never are details.
   */
  protected final void describe(Map<String, String> details) {
    this.details = Map.copyOf(details);
  }

  /** The key and version this error is about, as ErrorInfo metadata; empty when none. */
  public final Map<String, String> details() {
    return details;
  }

  /** What went wrong, for the status mapper and metrics. */
  public final ErrorKind kind() {
    return kind;
  }
}

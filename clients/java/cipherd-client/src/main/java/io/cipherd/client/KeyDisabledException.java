package io.cipherd.client;

/**
 * The key is disabled, scheduled for deletion or deleted: it serves no call until enabled (or its
 * deletion cancelled).
 */
public class KeyDisabledException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyDisabledException(ErrorDetails details) {
    super(details);
  }
}

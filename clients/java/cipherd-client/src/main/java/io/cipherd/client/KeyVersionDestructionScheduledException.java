package io.cipherd.client;

/**
 * The version is scheduled for destruction and refuses every call until the destruction is
 * cancelled.
 */
public class KeyVersionDestructionScheduledException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyVersionDestructionScheduledException(ErrorDetails details) {
    super(details);
  }
}

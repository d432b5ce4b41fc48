package io.cipherd.client;

/** The key's state or policy refuses the call (FAILED_PRECONDITION). */
public class FailedPreconditionException extends CipherdException {
  private static final long serialVersionUID = 1L;

  FailedPreconditionException(ErrorDetails details) {
    super(details);
  }
}

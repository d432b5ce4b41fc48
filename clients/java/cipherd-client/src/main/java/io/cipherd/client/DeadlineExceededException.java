package io.cipherd.client;

/** The call's deadline passed (DEADLINE_EXCEEDED). */
public class DeadlineExceededException extends CipherdException {
  private static final long serialVersionUID = 1L;

  DeadlineExceededException(ErrorDetails details) {
    super(details);
  }
}

package io.cipherd.client;

/** The call was cancelled, by the caller or an idle stream's end (CANCELLED). */
public class CancelledException extends CipherdException {
  private static final long serialVersionUID = 1L;

  CancelledException(ErrorDetails details) {
    super(details);
  }
}

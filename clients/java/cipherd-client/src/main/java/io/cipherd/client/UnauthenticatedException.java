package io.cipherd.client;

/** The call carried no valid credentials (UNAUTHENTICATED). */
public class UnauthenticatedException extends CipherdException {
  private static final long serialVersionUID = 1L;

  UnauthenticatedException(ErrorDetails details) {
    super(details);
  }
}

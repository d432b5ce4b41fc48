package io.cipherd.client;

/** The server or its key store could not be reached (UNAVAILABLE); retry later. */
public class UnavailableException extends CipherdException {
  private static final long serialVersionUID = 1L;

  UnavailableException(ErrorDetails details) {
    super(details);
  }
}

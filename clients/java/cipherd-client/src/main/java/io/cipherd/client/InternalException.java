package io.cipherd.client;

/** The server failed (INTERNAL). */
public class InternalException extends CipherdException {
  private static final long serialVersionUID = 1L;

  InternalException(ErrorDetails details) {
    super(details);
  }
}

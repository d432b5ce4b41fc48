package io.cipherd.client;

/** The key exists already (ALREADY_EXISTS). */
public class AlreadyExistsException extends CipherdException {
  private static final long serialVersionUID = 1L;

  AlreadyExistsException(ErrorDetails details) {
    super(details);
  }
}

package io.cipherd.client;

/** The key does not exist (NOT_FOUND). */
public class NotFoundException extends CipherdException {
  private static final long serialVersionUID = 1L;

  NotFoundException(ErrorDetails details) {
    super(details);
  }
}

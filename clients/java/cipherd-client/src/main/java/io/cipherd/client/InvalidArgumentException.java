package io.cipherd.client;

/**
 * The request was wrong: a bad key name, a malformed ciphertext, a context for an unauthenticated
 * mode... (INVALID_ARGUMENT).
 */
public class InvalidArgumentException extends CipherdException {
  private static final long serialVersionUID = 1L;

  InvalidArgumentException(ErrorDetails details) {
    super(details);
  }
}

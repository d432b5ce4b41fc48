package io.cipherd.server.errors;

/**
 * A request that can never succeed as sent; the message names the field and what is wrong with it.
 */
public final class InvalidArgumentException extends CipherdException {
  public InvalidArgumentException(String message) {
    super(ErrorKind.INVALID_ARGUMENT, message);
  }
}

package io.cipherd.server.engine;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * A ciphertext whose header names another key than the request's {@code expected_key}, refused
 * before anything is decrypted. The names are the header's (which the caller sent) and the caller's
 * own.
 */
public final class UnexpectedKeyException extends CipherdException {
  public UnexpectedKeyException(String actual, String expected) {
    super(
        ErrorKind.UNEXPECTED_KEY,
        "the ciphertext is under key '"
            + actual
            + "', not the expected_key '"
            + expected
            + "': refused before decrypting");
    describe(Map.of("key", actual, "expected_key", expected));
  }
}

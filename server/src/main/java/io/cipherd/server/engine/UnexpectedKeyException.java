package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * A ciphertext under a key other than the request's {@code expected_key} ({@link ExpectedKey}),
 * refused before anything was decrypted. It names both keys (a header is no secret: Inspect shows
 * it) and never the ciphertext; it reads the same whether the other key exists or the caller may
 * use it, since neither was asked.
 */
public final class UnexpectedKeyException extends CipherdException {
  UnexpectedKeyException(String keyName, String expected) {
    super(ErrorKind.UNEXPECTED_KEY, message(keyName, expected));
    describe(
        EnvelopeHeader.isValidKeyName(keyName)
            ? Map.of("key", keyName, "expected_key", expected)
            : Map.of("expected_key", expected));
  }

  private static String message(String keyName, String expected) {
    // A header's name is valid; a legacy item's key_name is the caller's and may not be, so it is
    // only named when it is.
    String under =
        EnvelopeHeader.isValidKeyName(keyName)
            ? "under key '" + keyName + "'"
            : "under another key";
    return "ciphertext is "
        + under
        + ", not expected_key '"
        + expected
        + "': refused without decrypting it";
  }
}

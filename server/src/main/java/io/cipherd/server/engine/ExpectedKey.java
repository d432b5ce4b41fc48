package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * The key a request says its ciphertext must be under ({@code expected_key}): a key name, or a
 * prefix ending in '*'. Checked on the header before anything is decrypted, so a value planted in a
 * column under another key the writer could use is refused, not trusted.
 */
record ExpectedKey(String name, boolean prefix) {
  /** No expectation: any key. */
  static final ExpectedKey ANY = new ExpectedKey("", /* prefix= */ true);

  /**
   * The expectation {@code expected} states; empty means {@link #ANY}. Throws {@link
   * InvalidArgumentException} unless it is a key name or a non-empty prefix of one followed by '*'.
   */
  static ExpectedKey parse(String expected) {
    if (expected.isEmpty()) {
      return ANY;
    }
    boolean prefix = expected.endsWith("*");
    String name = prefix ? expected.substring(0, expected.length() - 1) : expected;
    if (!EnvelopeHeader.isValidKeyName(name)) {
      throw new InvalidArgumentException(
          "expected_key must be a key name, or a key-name prefix followed by '*' (got "
              + expected.length()
              + " characters)");
    }
    return new ExpectedKey(name, prefix);
  }

  /** Throws {@link UnexpectedKeyException} unless {@code header} names an expected key. */
  void check(EnvelopeHeader header) {
    String actual = header.keyName();
    if (prefix ? !actual.startsWith(name) : !actual.equals(name)) {
      throw new UnexpectedKeyException(actual, prefix ? name + "*" : name);
    }
  }
}

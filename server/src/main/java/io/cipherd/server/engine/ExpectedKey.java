package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * The key a request expects its ciphertexts to be under (its {@code expected_key}): a key name, or
 * a prefix of key names ending in {@code *}. A ciphertext's header says which key decrypts it, so
 * without this a writer who may encrypt under any key with a column's context could plant a value
 * there that the reader decrypts and trusts. Checked against the header before the key is looked
 * up, authorized or used, so a refusal costs nothing and tells nothing about the other key.
 *
 * <p>Every operation that decrypts a caller's ciphertext on its behalf (Decrypt, ReEncrypt and
 * their batch and stream items, ReIndex) parses the request's field with {@link #parse} and calls
 * {@link #check} with the header's key name first.
 */
public final class ExpectedKey {
  /** No expectation: an empty {@code expected_key}; any key is accepted. */
  public static final ExpectedKey ANY = new ExpectedKey("", "", false);

  private final String value;
  private final String name;
  private final boolean prefix;

  private ExpectedKey(String value, String name, boolean prefix) {
    this.value = value;
    this.name = name;
    this.prefix = prefix;
  }

  /**
   * The expectation {@code value} states: {@link #ANY} when empty. Throws INVALID_ARGUMENT naming
   * {@code field} unless it is a key name or a key-name prefix followed by {@code *}.
   */
  public static ExpectedKey parse(String value, String field) {
    if (value.isEmpty()) {
      return ANY;
    }
    boolean prefix = value.endsWith("*");
    String name = prefix ? value.substring(0, value.length() - 1) : value;
    if (!EnvelopeHeader.isValidKeyName(name)) {
      // The length, not the value: it may be megabytes a caller sent.
      throw new InvalidArgumentException(
          field
              + " must be a key name ("
              + EnvelopeHeader.KEY_NAME_SYNTAX
              + ") or a prefix of one followed by '*', e.g. 'users-email' or 'users-*'"
              + " (got "
              + value.length()
              + " characters); leave it empty to accept any key");
    }
    return new ExpectedKey(value, name, prefix);
  }

  /**
   * The expectation of a batch item: its own {@code itemValue} when set (parsed as {@link #parse},
   * naming {@code field}), else the batch's.
   */
  public static ExpectedKey parse(String itemValue, ExpectedKey batch, String field) {
    return itemValue.isEmpty() ? batch : parse(itemValue, field);
  }

  /**
   * Whether a request whose raw {@code expected_key} is {@code value} fails on a ciphertext of
   * {@code keyName} (a parsed header's) without any key-store call: the expectation is not valid,
   * or does not match. For the checks that choose where to run a call; allocates nothing.
   */
  public static boolean refusesAtOnce(String value, String keyName) {
    if (value.isEmpty()) {
      return false;
    }
    if (!value.endsWith("*")) {
      return !keyName.equals(value);
    }
    // A non-empty prefix of a valid name is a valid name: one that matches is valid.
    int end = value.length() - 1;
    return end == 0 || !keyName.regionMatches(0, value, 0, end);
  }

  /** Whether nothing is expected, so every key is accepted. */
  public boolean isAny() {
    return name.isEmpty();
  }

  /** Whether a ciphertext under {@code keyName} meets the expectation. */
  public boolean matches(String keyName) {
    if (prefix) {
      return keyName.startsWith(name);
    }
    return isAny() || keyName.equals(name);
  }

  /**
   * Throws {@link UnexpectedKeyException} unless a ciphertext under {@code keyName} meets the
   * expectation. Call it before the key is looked up or authorized.
   */
  public void check(String keyName) {
    if (!matches(keyName)) {
      throw new UnexpectedKeyException(keyName, value);
    }
  }

  /** The {@code expected_key} as the caller wrote it; empty for {@link #ANY}. */
  @Override
  public String toString() {
    return value;
  }
}

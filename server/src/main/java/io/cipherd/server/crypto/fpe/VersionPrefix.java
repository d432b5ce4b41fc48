package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;

/**
 * The key version a ciphertext of an alphabet format may start with: {@code version_prefix_length}
 * characters of the alphabet writing the version in base radix, most significant first. Without a
 * prefix the version travels beside the value, and these read and write nothing.
 */
public final class VersionPrefix {
  private VersionPrefix() {}

  /** The prefix of version {@code version}; empty without a prefix. */
  public static String write(FpeFormat format, int version) {
    int length = format.versionPrefixLength();
    if (length == 0) {
      return "";
    }
    if (version > format.maxVersion()) {
      throw new IllegalArgumentException(
          "version " + version + " does not fit a prefix of " + length);
    }
    FpeAlphabet alphabet = format.alphabet();
    int[] numerals = new int[length];
    int rest = version;
    for (int i = length - 1; i >= 0; i--) {
      numerals[i] = rest % alphabet.radix();
      rest /= alphabet.radix();
    }
    return alphabet.write(numerals);
  }

  /** The version {@code value}'s prefix names (at most Integer.MAX_VALUE); 0 without a prefix. */
  public static int read(FpeFormat format, String value) {
    int length = format.versionPrefixLength();
    if (length == 0) {
      return 0;
    }
    ValueLayout.checkLength(value);
    if (value.codePointCount(0, value.length()) <= length) {
      throw new InvalidArgumentException(
          "the value is shorter than the key's version prefix of " + length + " characters");
    }
    int[] numerals = format.alphabet().numerals(value.substring(0, prefixEnd(format, value)));
    long version = 0;
    for (int numeral : numerals) {
      version = version * format.alphabet().radix() + numeral;
    }
    // Two numerals of a 65,536-character alphabet pass an int; no key has that many versions.
    return (int) Math.min(version, Integer.MAX_VALUE);
  }

  /** {@code value} without its prefix. */
  public static String body(FpeFormat format, String value) {
    return format.versionPrefixLength() == 0 ? value : value.substring(prefixEnd(format, value));
  }

  private static int prefixEnd(FpeFormat format, String value) {
    return value.offsetByCodePoints(0, format.versionPrefixLength());
  }
}

package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;

/**
 * A value of a format read into its characters, which of them are data (what a mask hides), which
 * of those FF1 changes, and, for a card number, the digit set for the Luhn residue. Refusals name
 * the position and what was expected, never the value, which may be personal data.
 */
final class ValueLayout {
  /**
   * The longest value read at all, in UTF-16 units: far above any format's (256 numerals, a prefix,
   * a phone number's separators), so a huge value is refused before it is looked at.
   */
  static final int MAX_CHARS = 1024;

  private static final int CARD_MIN_DIGITS = 12;
  private static final int CARD_MAX_DIGITS = 19;
  private static final int PHONE_MAX_SUBSCRIBER_DIGITS = 14;

  /** The value's code points. */
  final int[] codePoints;

  /** Indexes (into {@link #codePoints}) of the data characters, in order. */
  final int[] data;

  /** Indexes of the characters FF1 changes, in order (a subset of {@link #data}). */
  final int[] encrypted;

  /** Indexes of every digit of a card number, for its Luhn sum; null for other formats. */
  final int[] luhnDigits;

  /** The index of the card digit set for the Luhn residue; -1 for other formats. */
  final int luhnPosition;

  private ValueLayout(
      int[] codePoints, int[] data, int[] encrypted, int[] luhnDigits, int luhnPosition) {
    this.codePoints = codePoints;
    this.data = data;
    this.encrypted = encrypted;
    this.luhnDigits = luhnDigits;
    this.luhnPosition = luhnPosition;
  }

  /** Reads {@code value} as a value of {@code format} (without any version prefix). */
  static ValueLayout of(FpeFormat format, String value) {
    checkLength(value);
    int[] codePoints = value.codePoints().toArray();
    FormatTemplate template = format.template();
    if (template == null
        || template == FormatTemplate.DIGITS
        || template == FormatTemplate.LOWER_ALPHANUMERIC
        || template == FormatTemplate.ALPHANUMERIC) {
      format.alphabet().numerals(value);
      int[] all = range(codePoints.length);
      return new ValueLayout(codePoints, all, all, null, -1);
    }
    return switch (template) {
      case CARD_NUMBER -> card(codePoints, 6);
      case CARD_NUMBER_LAST_FOUR -> card(codePoints, 0);
      case PHONE_NUMBER -> phone(codePoints);
      default -> throw new IllegalStateException("unhandled template " + template);
    };
  }

  /** Refuses a value too long to be any format's, before reading it. */
  static void checkLength(String value) {
    if (value.length() > MAX_CHARS) {
      throw new InvalidArgumentException(
          "a formatted value has at most "
              + MAX_CHARS
              + " characters, not "
              + value.length()
              + " (FF1 encrypts at most "
              + Ff1.MAX_NUMERALS
              + ")");
    }
  }

  /** The numerals FF1 changes, in the format's alphabet. */
  int[] encryptedNumerals(FpeAlphabet alphabet) {
    int[] numerals = new int[ff1Count()];
    StringBuilder characters = new StringBuilder();
    for (int i = 0; i < numerals.length; i++) {
      characters.appendCodePoint(codePoints[encrypted[i]]);
    }
    int[] read = alphabet.numerals(characters.toString());
    System.arraycopy(read, 0, numerals, 0, numerals.length);
    return numerals;
  }

  /** How many characters FF1 itself changes: all encrypted ones but a card's Luhn digit. */
  int ff1Count() {
    return luhnPosition < 0 ? encrypted.length : encrypted.length - 1;
  }

  private static ValueLayout card(int[] codePoints, int keptHead) {
    int[] digits = new int[codePoints.length];
    int count = 0;
    for (int i = 0; i < codePoints.length; i++) {
      int c = codePoints[i];
      if (c >= '0' && c <= '9') {
        digits[count++] = i;
      } else if (c != ' ' && c != '-') {
        throw new InvalidArgumentException(
            "character "
                + (i + 1)
                + " of the value is not a digit, space or hyphen: a card number has "
                + CARD_MIN_DIGITS
                + " to "
                + CARD_MAX_DIGITS
                + " digits");
      }
    }
    if (count < CARD_MIN_DIGITS || count > CARD_MAX_DIGITS) {
      throw new InvalidArgumentException(
          "a card number has "
              + CARD_MIN_DIGITS
              + " to "
              + CARD_MAX_DIGITS
              + " digits, not "
              + count);
    }
    int[] all = new int[count];
    System.arraycopy(digits, 0, all, 0, count);
    int[] encrypted = new int[count - 4 - keptHead];
    System.arraycopy(all, keptHead, encrypted, 0, encrypted.length);
    return new ValueLayout(codePoints, all, encrypted, all, encrypted[encrypted.length - 1]);
  }

  private static ValueLayout phone(int[] codePoints) {
    if (codePoints.length == 0 || codePoints[0] != '+') {
      throw new InvalidArgumentException(
          "a PHONE_NUMBER value is in international format: '+', the country calling code "
              + "(ITU-T E.164), then the number");
    }
    int[] positions = new int[codePoints.length];
    int[] digits = new int[codePoints.length];
    int count = 0;
    for (int i = 1; i < codePoints.length; i++) {
      int c = codePoints[i];
      if (c >= '0' && c <= '9') {
        positions[count] = i;
        digits[count++] = c - '0';
      } else if (" -.()".indexOf(c) < 0) {
        throw new InvalidArgumentException(
            "character "
                + (i + 1)
                + " of the value is not a digit, space, hyphen, dot or parenthesis");
      }
    }
    int[] read = new int[count];
    System.arraycopy(digits, 0, read, 0, count);
    int countryCode = PhoneCountryCodes.length(read);
    int subscriber = count - countryCode;
    if (subscriber < 0 || subscriber > PHONE_MAX_SUBSCRIBER_DIGITS) {
      throw new InvalidArgumentException(
          "a phone number has at most "
              + PHONE_MAX_SUBSCRIBER_DIGITS
              + " digits after its country calling code, not "
              + Math.max(subscriber, 0));
    }
    int[] encrypted = new int[subscriber];
    System.arraycopy(positions, countryCode, encrypted, 0, subscriber);
    return new ValueLayout(codePoints, encrypted, encrypted, null, -1);
  }

  private static int[] range(int n) {
    int[] all = new int[n];
    for (int i = 0; i < n; i++) {
      all[i] = i;
    }
    return all;
  }
}

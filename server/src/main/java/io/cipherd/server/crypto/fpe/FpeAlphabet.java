package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.HashMap;
import java.util.Map;

/**
 * The characters a format-preserving value is written in, in order: the i-th character is the
 * numeral i, so the alphabet's size is FF1's radix. Characters are Unicode code points, so an
 * alphabet may hold letters outside the Basic Multilingual Plane; each appears once.
 */
public final class FpeAlphabet {
  /** The decimal digits, radix 10. */
  public static final FpeAlphabet DIGITS = of("0123456789");

  /** Digits then lowercase ASCII letters, radix 36 (NIST's FF1 samples use it). */
  public static final FpeAlphabet LOWER_ALPHANUMERIC = of("0123456789abcdefghijklmnopqrstuvwxyz");

  /** Digits, uppercase then lowercase ASCII letters, radix 62. */
  public static final FpeAlphabet ALPHANUMERIC =
      of("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");

  private final int[] characters;
  private final Map<Integer, Integer> numerals;

  private FpeAlphabet(int[] characters, Map<Integer, Integer> numerals) {
    this.characters = characters;
    this.numerals = numerals;
  }

  /**
   * The alphabet of {@code characters}, in that order: 2 to {@link Ff1#MAX_RADIX} distinct code
   * points.
   */
  public static FpeAlphabet of(String characters) {
    int[] codePoints = characters.codePoints().toArray();
    if (codePoints.length < 2 || codePoints.length > Ff1.MAX_RADIX) {
      throw new InvalidArgumentException(
          "an FF1 alphabet has 2 to " + Ff1.MAX_RADIX + " characters, not " + codePoints.length);
    }
    Map<Integer, Integer> numerals = new HashMap<>(codePoints.length * 2);
    for (int i = 0; i < codePoints.length; i++) {
      if (numerals.putIfAbsent(codePoints[i], i) != null) {
        throw new InvalidArgumentException(
            "an FF1 alphabet names each character once; U+"
                + String.format("%04X", codePoints[i])
                + " appears twice");
      }
    }
    return new FpeAlphabet(codePoints, numerals);
  }

  /** How many characters the alphabet has: FF1's radix. */
  public int radix() {
    return characters.length;
  }

  /**
   * The numerals of {@code value}. A character outside the alphabet is refused by its position and
   * code point, never by the value itself, which may be personal data.
   */
  public int[] numerals(String value) {
    int[] codePoints = value.codePoints().toArray();
    int[] result = new int[codePoints.length];
    for (int i = 0; i < codePoints.length; i++) {
      Integer numeral = numerals.get(codePoints[i]);
      if (numeral == null) {
        throw new InvalidArgumentException(
            "character "
                + (i + 1)
                + " of the value is not in the key's alphabet of "
                + radix()
                + " characters");
      }
      result[i] = numeral;
    }
    return result;
  }

  /** The character (code point) of {@code numeral}, in [0, radix). */
  public int character(int numeral) {
    return characters[numeral];
  }

  /** The string the numerals (each in [0, radix)) write. */
  public String write(int[] numerals) {
    StringBuilder out = new StringBuilder(numerals.length);
    for (int numeral : numerals) {
      out.appendCodePoint(characters[numeral]);
    }
    return out.toString();
  }
}

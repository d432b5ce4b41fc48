package io.cipherd.server.crypto.fpe;

/**
 * The Luhn checksum (ISO/IEC 7812-1) of a digit string: every second digit from the right doubled
 * (less 9 above 9), all summed mod 10; a valid card number sums to 0. A digit's contribution at a
 * fixed position is a bijection of 0..9, which is what lets a card's middle digits be encrypted
 * with its residue kept ({@link #digitFor}).
 */
public final class Luhn {
  private Luhn() {}

  /** The sum mod 10 of {@code digits} (each 0..9, most significant first). */
  public static int residue(int[] digits) {
    int sum = 0;
    for (int i = 0; i < digits.length; i++) {
      sum += contribution(digits[i], digits.length - 1 - i);
    }
    return sum % 10;
  }

  /** What {@code digit} adds to the sum at {@code fromRight} places from the right (0: last). */
  public static int contribution(int digit, int fromRight) {
    if (fromRight % 2 == 0) {
      return digit;
    }
    int doubled = 2 * digit;
    return doubled > 9 ? doubled - 9 : doubled;
  }

  /** The digit whose contribution at {@code fromRight} places from the right is {@code wanted}. */
  public static int digitFor(int wanted, int fromRight) {
    for (int digit = 0; digit < 10; digit++) {
      if (contribution(digit, fromRight) == wanted) {
        return digit;
      }
    }
    throw new IllegalArgumentException("no digit contributes " + wanted);
  }
}

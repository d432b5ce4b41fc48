package io.cipherd.server.crypto.fpe;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Set;

/**
 * The length of an international phone number's country calling code (ITU-T E.164), read from its
 * first digits. The codes are prefix-free: 1 (North America) and 7 (Russia, Kazakhstan) are one
 * digit, the two-digit codes below are fixed, and every other code is three digits. No code starts
 * with 0.
 */
public final class PhoneCountryCodes {
  private static final Set<Integer> TWO_DIGIT =
      Set.of(
          20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54,
          55, 56, 57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98);

  private PhoneCountryCodes() {}

  /**
   * How many of {@code digits} (the number's digits after "+", at least two) are its country code:
   * 1, 2 or 3.
   */
  public static int length(int[] digits) {
    if (digits.length == 0 || digits[0] == 0) {
      throw new InvalidArgumentException(
          "a phone number's country calling code starts with a digit from 1 to 9");
    }
    if (digits[0] == 1 || digits[0] == 7) {
      return 1;
    }
    if (digits.length >= 2 && TWO_DIGIT.contains(digits[0] * 10 + digits[1])) {
      return 2;
    }
    return 3;
  }
}

package io.cipherd.server.crypto.fpe;

/**
 * Encrypts and decrypts values of a {@link FpeFormat} with FF1: the characters the format keeps
 * stay in place, the others go through FF1 over the format's alphabet ({@link FpeDomain}, walking a
 * small domain if the format accepts one), a card number's Luhn digit is set so its residue is
 * unchanged, and a version prefix ({@link VersionPrefix}) is written or read. Decrypting with a
 * wrong key version or context cannot be told from a right one: it gives another value of the
 * format.
 */
public final class FormattedCipher {
  private FormattedCipher() {}

  /** {@code value} encrypted under {@code ff1} and {@code tweak} by key version {@code version}. */
  public static String encrypt(FpeFormat format, Ff1 ff1, byte[] tweak, String value, int version) {
    String prefix = VersionPrefix.write(format, version);
    return prefix + run(true, format, ff1, tweak, value);
  }

  /** The plaintext of {@code body}, a ciphertext without its version prefix. */
  public static String decrypt(FpeFormat format, Ff1 ff1, byte[] tweak, String body) {
    return run(false, format, ff1, tweak, body);
  }

  /**
   * Checks that {@code value} is a value of {@code format} that FF1 can take, without encrypting
   * it: what a refused value costs.
   */
  public static void check(FpeFormat format, String value) {
    ValueLayout layout = ValueLayout.of(format, value);
    FpeDomain.ff1Length(format.alphabet().radix(), layout.ff1Count(), format.acceptSmallDomain());
  }

  private static String run(
      boolean encrypt, FpeFormat format, Ff1 ff1, byte[] tweak, String value) {
    ValueLayout layout = ValueLayout.of(format, value);
    FpeAlphabet alphabet = format.alphabet();
    int[] numerals = layout.encryptedNumerals(alphabet);
    int[] changed =
        encrypt
            ? FpeDomain.encrypt(ff1, alphabet.radix(), tweak, numerals, format.acceptSmallDomain())
            : FpeDomain.decrypt(ff1, alphabet.radix(), tweak, numerals, format.acceptSmallDomain());
    int[] out = layout.codePoints.clone();
    for (int i = 0; i < changed.length; i++) {
      out[layout.encrypted[i]] = alphabet.character(changed[i]);
    }
    if (layout.luhnPosition >= 0) {
      keepLuhnResidue(layout, out);
    }
    return new String(out, 0, out.length);
  }

  /** Sets the Luhn digit of {@code out} so its residue is the input's ({@code layout}'s). */
  private static void keepLuhnResidue(ValueLayout layout, int[] out) {
    int[] digits = layout.luhnDigits;
    int residue = Luhn.residue(digitsAt(layout.codePoints, digits));
    int others = 0;
    int fromRightOfFixed = -1;
    for (int i = 0; i < digits.length; i++) {
      int fromRight = digits.length - 1 - i;
      if (digits[i] == layout.luhnPosition) {
        fromRightOfFixed = fromRight;
      } else {
        others += Luhn.contribution(out[digits[i]] - '0', fromRight);
      }
    }
    int wanted = Math.floorMod(residue - others, 10);
    out[layout.luhnPosition] = '0' + Luhn.digitFor(wanted, fromRightOfFixed);
  }

  private static int[] digitsAt(int[] codePoints, int[] positions) {
    int[] digits = new int[positions.length];
    for (int i = 0; i < positions.length; i++) {
      digits[i] = codePoints[positions[i]] - '0';
    }
    return digits;
  }
}

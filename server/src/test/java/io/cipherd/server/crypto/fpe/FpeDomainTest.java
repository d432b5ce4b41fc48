package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * {@link FpeDomain}: cycle-walking is a bijection of a small domain, checked exhaustively over all
 * 10<sup>4</sup> four-digit values; its cap, and the refusals below the floors.
 */
class FpeDomainTest {
  private static final Ff1 KEY =
      Ff1.withKey(HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f"));
  private static final byte[] TWEAK = FpeTweak.of("k", new byte[0]);

  @Test
  void walk_isAPermutationOfEveryFourDigitValue_andDecryptInvertsIt() {
    // Every one of the 10^4 values, about a million FF1 calls: the property FF1's vectors cannot
    // show.
    boolean[] seen = new boolean[10_000];
    int fixedPoints = 0;
    for (int value = 0; value < 10_000; value++) {
      int[] numerals = digits(value, 4);
      int[] encrypted = FpeDomain.encrypt(KEY, 10, TWEAK, numerals, true);
      int out = number(encrypted);
      assertThat(seen[out]).as("two values encrypt to %d", out).isFalse();
      seen[out] = true;
      fixedPoints += out == value ? 1 : 0;
      if (value % 7 == 0) {
        // A sample of the inverse: decrypting walks the same cycles backwards.
        assertThat(FpeDomain.decrypt(KEY, 10, TWEAK, encrypted, true)).isEqualTo(numerals);
      }
    }
    // A random permutation of 10,000 has about one fixed point; a walk that did nothing, 10,000.
    assertThat(fixedPoints).isLessThan(10);
  }

  @Test
  void smallDomain_isWalkedInTheShortestLengthFf1Takes() {
    assertThat(FpeDomain.ff1Length(10, 4, true)).isEqualTo(6);
    assertThat(FpeDomain.ff1Length(10, 5, true)).isEqualTo(6);
    assertThat(FpeDomain.ff1Length(10, 6, false)).isEqualTo(6);
    assertThat(FpeDomain.ff1Length(36, 3, true)).isEqualTo(4);
    assertThat(FpeDomain.ff1Length(65_536, 1, true)).isEqualTo(2);
  }

  @Test
  void walk_stopsAtItsCap_withAnInternalError() {
    // One step is too few for almost every value: 99 in 100 land outside the small domain.
    int refused = 0;
    for (int value = 0; value < 50; value++) {
      try {
        FpeDomain.walk(true, KEY, 10, TWEAK, digits(value, 4), 6, 1);
      } catch (IllegalStateException e) {
        assertThat(e).hasMessageContaining("more than 1 steps");
        refused++;
      }
    }
    assertThat(refused).isGreaterThan(40);
  }

  @Test
  void walkCap_isFarAboveWhatAnyFourDigitValueNeeds() {
    long most = 0;
    for (int value = 0; value < 500; value++) {
      most = Math.max(most, steps(digits(value, 4)));
    }
    // Expected 100 steps (10^6 / 10^4); the cap is 64 times that.
    assertThat(most).isLessThan(FpeDomain.STEP_CAP_FACTOR * 100).isGreaterThan(100);
  }

  @Test
  void domainsBelowTheFloors_areRefused() {
    assertThatThrownBy(() -> FpeDomain.ff1Length(10, 5, false))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("100000 values")
        .hasMessageContaining("accept_small_domain");
    assertThatThrownBy(() -> FpeDomain.ff1Length(10, 3, true))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("which no key accepts");
    assertThatThrownBy(() -> FpeDomain.ff1Length(2, 13, true)).hasMessageContaining("8192 values");
  }

  /** How many FF1 calls the walk of {@code numerals} (four digits, in six) makes. */
  private static long steps(int[] numerals) {
    int[] x = new int[6];
    System.arraycopy(numerals, 0, x, 2, 4);
    long steps = 0;
    try (Ff1.Steps ff1 = KEY.steps(true, 10, TWEAK, 6)) {
      do {
        x = ff1.apply(x);
        steps++;
      } while (x[0] != 0 || x[1] != 0);
    }
    return steps;
  }

  private static int[] digits(int value, int length) {
    int[] digits = new int[length];
    for (int i = length - 1; i >= 0; i--) {
      digits[i] = value % 10;
      value /= 10;
    }
    return digits;
  }

  private static int number(int[] digits) {
    int n = 0;
    for (int d : digits) {
      n = n * 10 + d;
    }
    return n;
  }
}

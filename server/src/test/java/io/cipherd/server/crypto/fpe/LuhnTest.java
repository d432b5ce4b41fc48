package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Luhn} on published test card numbers, and the bijection the card template relies on. */
class LuhnTest {
  @ParameterizedTest(name = "{0} is Luhn-valid")
  @ValueSource(
      strings = {"4111111111111111", "5500000000000004", "378282246310005", "6011111111111117"})
  void publishedTestCards_sumToZero(String card) {
    assertThat(Luhn.residue(card.chars().map(c -> c - '0').toArray())).isZero();
  }

  @Test
  void oneDigitChanged_breaksTheSum() {
    assertThat(Luhn.residue("4111111111111112".chars().map(c -> c - '0').toArray())).isNotZero();
  }

  @Test
  void contributionAtAFixedPosition_isABijectionOfTheDigits() {
    for (int fromRight = 0; fromRight < 19; fromRight++) {
      boolean[] seen = new boolean[10];
      for (int digit = 0; digit < 10; digit++) {
        int contribution = Luhn.contribution(digit, fromRight);
        assertThat(seen[contribution]).isFalse();
        seen[contribution] = true;
        assertThat(Luhn.digitFor(contribution, fromRight)).isEqualTo(digit);
      }
    }
  }
}

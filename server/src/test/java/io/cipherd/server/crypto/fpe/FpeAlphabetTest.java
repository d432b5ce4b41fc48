package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import org.junit.jupiter.api.Test;

class FpeAlphabetTest {
  @Test
  void numeralsAreTheCharactersPositions() {
    assertThat(FpeAlphabet.DIGITS.radix()).isEqualTo(10);
    assertThat(FpeAlphabet.LOWER_ALPHANUMERIC.radix()).isEqualTo(36);
    assertThat(FpeAlphabet.ALPHANUMERIC.radix()).isEqualTo(62);
    assertThat(FpeAlphabet.LOWER_ALPHANUMERIC.numerals("09az")).containsExactly(0, 9, 10, 35);
    assertThat(FpeAlphabet.ALPHANUMERIC.write(new int[] {0, 10, 36, 61})).isEqualTo("0Aaz");
  }

  @Test
  void charactersOutsideTheBasicPlaneAreOneNumeralEach() {
    FpeAlphabet alphabet = FpeAlphabet.of("a\uD83D\uDE00b");
    assertThat(alphabet.radix()).isEqualTo(3);
    assertThat(alphabet.numerals("\uD83D\uDE00ba")).containsExactly(1, 2, 0);
    assertThat(alphabet.write(new int[] {1, 1})).isEqualTo("\uD83D\uDE00\uD83D\uDE00");
  }

  @Test
  void aCharacterOutsideTheAlphabetIsNamedByPositionNeverByValue() {
    assertThatThrownBy(() -> FpeAlphabet.DIGITS.numerals("4111-1111"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("character 5 ")
        .hasMessageNotContaining("4111")
        .hasMessageNotContaining("-");
  }

  @Test
  void refusesRepeatedCharactersAndAlphabetsTooSmall() {
    assertThatThrownBy(() -> FpeAlphabet.of("0120"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("U+0030 appears twice");
    assertThatThrownBy(() -> FpeAlphabet.of("x"))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("not 1");
  }
}

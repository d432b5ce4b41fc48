package io.cipherd.server.crypto.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Normalization's trim on hostile inputs, its agreement with Unicode White_Space, and its size cap.
 */
class NormalizationTest {
  private static final Normalization TRIM = Normalization.NONE.withTrim();

  /**
   * Only a guard against pathological blow-up, not a speed test (speed is measured in benchmarks):
   * the linear trim takes milliseconds here, the regex it replaced took minutes on 64 KiB of
   * spaces.
   */
  private static final Duration BLOW_UP_GUARD = Duration.ofSeconds(5);

  @ParameterizedTest(name = "{0} inner spaces")
  @ValueSource(ints = {40_000, Normalization.MAX_VALUE_BYTES - 2})
  void trim_longInnerRunOfSpaces_keepsTheRun(int spaces) {
    String value = "x" + " ".repeat(spaces) + "x";

    String trimmed = assertTimeoutPreemptively(BLOW_UP_GUARD, () -> trim(value));

    assertThat(trimmed).isEqualTo(value);
  }

  @Test
  void trim_maximalValueOfSpaces_leavesNothingOrTheLoneCharacter() {
    String spaces = " ".repeat(Normalization.MAX_VALUE_BYTES);
    String trailing = "x" + " ".repeat(Normalization.MAX_VALUE_BYTES - 1);
    String leading = " ".repeat(Normalization.MAX_VALUE_BYTES - 1) + "x";

    assertTimeoutPreemptively(
        BLOW_UP_GUARD,
        () -> {
          assertThat(trim(spaces)).isEmpty();
          assertThat(trim(trailing)).isEqualTo("x");
          assertThat(trim(leading)).isEqualTo("x");
        });
  }

  /**
   * Every code point up to past U+3000 (the last White_Space) trims as the old regex trimmed it.
   */
  @Test
  void trim_agreesWithJavaRegexWhiteSpace_onEveryBmpCodePointUpToU3100() {
    Pattern reference = Pattern.compile("^\\p{IsWhite_Space}+|\\p{IsWhite_Space}+$");
    for (int cp = 0; cp <= 0x3100; cp++) {
      if (Character.isSurrogate((char) cp)) {
        continue;
      }
      String c = Character.toString(cp);
      for (String value : new String[] {c, c + "a" + c, c + c + "a b" + c}) {
        assertThat(trim(value)).as("U+%04X", cp).isEqualTo(reference.matcher(value).replaceAll(""));
      }
    }
    assertThat(trim("\uD83D\uDE00 \u2028")).isEqualTo("\uD83D\uDE00");
  }

  @Test
  void apply_valueAtTheCap_isAccepted_withAnyNormalization() {
    byte[] value = "a".repeat(Normalization.MAX_VALUE_BYTES).getBytes(StandardCharsets.UTF_8);

    assertThat(Normalization.NONE.apply(value)).isSameAs(value);
    assertThat(Normalization.NONE.withTrim().withNfkc().withCasefold().apply(value))
        .isEqualTo(value);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void apply_valueOverTheCap_isRefused_namingTheLimitNotTheValue(boolean normalize) {
    byte[] value =
        "secret-".repeat(Normalization.MAX_VALUE_BYTES / 7 + 1).getBytes(StandardCharsets.UTF_8);
    Normalization normalization =
        normalize ? Normalization.NONE.withTrim().withNfkc().withCasefold() : Normalization.NONE;

    assertThatThrownBy(() -> normalization.apply(value))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("65536 bytes")
        .hasMessageNotContaining("secret");
  }

  private static String trim(String value) {
    return new String(TRIM.apply(value.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
  }
}

package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link FpeMask}: what each format's mask shows of a plaintext. */
class FpeMaskTest {
  @ParameterizedTest(name = "{0} (suffix {1}): {2} -> {3}")
  @CsvSource({
    "CARD_NUMBER, 0, 4242 4242 4242 4242, •••• •••• •••• 4242",
    "CARD_NUMBER_LAST_FOUR, 0, 4242-4242-4242-4242, ••••-••••-••••-4242",
    "CARD_NUMBER, 2, 4242424242424242, ••••••••••••••42",
    "PHONE_NUMBER, 0, +44 20 7946 0958, +44 •• •••• ••58",
    "PHONE_NUMBER, 0, +1 (415) 555-2671, +1 (•••) •••-••71",
    "DIGITS, 0, 123456789, •••••••••",
    "DIGITS, 3, 123456789, ••••••789",
    "DIGITS, 4, 12345678, ••••••••",
    "ALPHANUMERIC, 1, ab, ••",
  })
  void mask(FormatTemplate template, int suffix, String plaintext, String masked) {
    assertThat(FpeMask.of(FpeFormat.ofTemplate(template, false, suffix), plaintext))
        .isEqualTo(masked);
  }
}

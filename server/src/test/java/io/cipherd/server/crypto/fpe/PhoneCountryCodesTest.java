package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link PhoneCountryCodes} on the ITU-T E.164 assignments of some countries. */
class PhoneCountryCodesTest {
  @ParameterizedTest(name = "+{0}… has a {1}-digit country code")
  @CsvSource({
    "14155552671, 1",
    "74951234567, 1",
    "442079460958, 2",
    "33142685300, 2",
    "4930123456, 2",
    "861012345678, 2",
    "919876543210, 2",
    "353123456789, 3",
    "358401234567, 3",
    "420212345678, 3",
    "971501234567, 3",
    "2348012345678, 3",
    "21612345678, 3",
    "8801712345678, 3",
  })
  void countryCodeLength(String number, int length) {
    assertThat(PhoneCountryCodes.length(number.chars().map(c -> c - '0').toArray()))
        .isEqualTo(length);
  }

  @Test
  void noCodeStartsWithZero() {
    assertThatThrownBy(() -> PhoneCountryCodes.length(new int[] {0, 1, 2}))
        .isInstanceOf(InvalidArgumentException.class);
  }
}

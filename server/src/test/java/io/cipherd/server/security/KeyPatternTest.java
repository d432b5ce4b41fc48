package io.cipherd.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Key-name globs: whole-name matching with {@code *} as any run, on short and very long names. */
class KeyPatternTest {
  /**
   * Only a guard against pathological blow-up, not a speed test (speed is measured in benchmarks):
   * the linear matcher takes milliseconds here, the regex it replaced took seconds to minutes.
   */
  private static final Duration BLOW_UP_GUARD = Duration.ofSeconds(5);

  @ParameterizedTest(name = "{0} matches ''{1}'': {2}")
  @CsvSource({
    "invoices, invoices, true",
    "invoices, invoices2, false",
    "invoices, '', false",
    "*, '', true",
    "*, anything-at-all, true",
    "**, x, true",
    "a**b, ab, true",
    "payments-*, payments-, true",
    "payments-*, payments, false",
    "*-archive, logs-archive-2, false",
    "a*b*c, abc, true",
    "a*b*c, a-x-b-y-c, true",
    "a*b*c, abcbc, true",
    "a*b*c, acb, false",
    "a*b*c, ac, false",
    "ab*ba, aba, false",
    "ab*ba, abba, true",
    "ab*ba, ab-ba, true",
    "a*a, a, false",
    "a*a, aa, true",
    "*a*, a, true",
    "*a*, '', false",
    "*b*b*, b, false",
    "*b*b*, bb, true",
    "x*y*y, xy, false",
    "x*y*y, xyy, true",
    "x*yy*y, xyyy, true",
    "x*yy*y, xyyxy, true",
    "x*yy*y, xyxy, false",
  })
  void matches_wholeName_isAsTheGlobSays(String glob, String keyName, boolean matches) {
    assertThat(KeyPattern.of(glob).matches(keyName)).isEqualTo(matches);
  }

  @ParameterizedTest(name = "{0}: {2}")
  @CsvSource({
    "*a*a*b, a, false",
    "*a*a*a, a, true",
    "a*-*-*-z, -, false",
  })
  void matches_96000CharacterName_isAnsweredWithoutBlowUp(
      String glob, String repeated, boolean matches) {
    String keyName = repeated.repeat(96_000);

    boolean matched =
        assertTimeoutPreemptively(BLOW_UP_GUARD, () -> KeyPattern.of(glob).matches(keyName));

    assertThat(matched).isEqualTo(matches);
  }
}

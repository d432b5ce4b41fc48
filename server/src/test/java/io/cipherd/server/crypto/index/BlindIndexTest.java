package io.cipherd.server.crypto.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Blind indexes: HMAC-SHA-256 against RFC 4231, truncation, and each normalization step. */
class BlindIndexTest {
  private static final HexFormat HEX = HexFormat.of();

  /** RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?". */
  @Test
  void rfc4231_case2_wholeAndTruncated() {
    SecretKeySpec key = new SecretKeySpec("Jefe".getBytes(StandardCharsets.US_ASCII), "HmacSHA256");
    byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.US_ASCII);
    String expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

    assertThat(HEX.formatHex(BlindIndex.compute(key, data, BlindIndex.length(0))))
        .isEqualTo(expected);
    assertThat(HEX.formatHex(BlindIndex.compute(key, data, BlindIndex.length(8))))
        .isEqualTo(expected.substring(0, 16));
  }

  @ParameterizedTest
  @ValueSource(ints = {-1, 1, 7, 33, 64})
  void length_outside8To32_isRefused(int length) {
    assertThatThrownBy(() -> BlindIndex.length(length))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("length_bytes must be 8 to 32");
  }

  @ParameterizedTest(name = "{0}: \"{1}\" and \"{2}\"")
  @CsvSource(
      delimiter = '|',
      value = {
        "trim       | '\u00a0 alice@example.com\u3000\t' | alice@example.com",
        "casefold   | Straße                             | STRASSE",
        "casefold   | ΌΣΟΣ                               | όσος",
        "nfkc       | Ａｌｉｃｅ                          | Alice",
        "nfkc       | ﬁle                                | file",
        "all        | '  ＳＴＲＡẞＥ '                     | strasse"
      })
  void valuesAUserCallsEqual_normalizeToEqualBytes(String steps, String left, String right) {
    Normalization normalization =
        switch (steps.trim()) {
          case "trim" -> Normalization.NONE.withTrim();
          case "casefold" -> Normalization.NONE.withCasefold();
          case "nfkc" -> Normalization.NONE.withNfkc();
          default -> Normalization.NONE.withTrim().withNfkc().withCasefold();
        };
    byte[] a = normalization.apply(left.getBytes(StandardCharsets.UTF_8));
    byte[] b = normalization.apply(right.getBytes(StandardCharsets.UTF_8));

    if (steps.trim().equals("casefold") || steps.trim().equals("all")) {
      assertThat(new String(a, StandardCharsets.UTF_8))
          .isEqualTo(new String(b, StandardCharsets.UTF_8));
    } else {
      assertThat(new String(a, StandardCharsets.UTF_8)).isEqualTo(right.trim());
    }
    assertThat(Normalization.NONE.apply(left.getBytes(StandardCharsets.UTF_8)))
        .isNotEqualTo(Normalization.NONE.apply(right.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void trim_keepsInnerWhiteSpace_andCasefoldIsNotLowercase() {
    Normalization both = Normalization.NONE.withTrim().withCasefold();
    assertThat(
            new String(
                both.apply(" Ada  Lovelace ".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8))
        .isEqualTo("ada  lovelace");
    // Full folding maps ß to "ss"; String.toLowerCase keeps it.
    assertThat(new String(both.apply("ß".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
        .isEqualTo("ss");
  }

  @Test
  void noStep_hashesRawBytes_evenIfNotUtf8_butAnyStepNeedsUtf8() {
    byte[] notUtf8 = {(byte) 0xff, (byte) 0xfe, 0x41};
    assertThat(Normalization.NONE.apply(notUtf8)).isSameAs(notUtf8);

    assertThatThrownBy(() -> Normalization.NONE.withCasefold().apply(notUtf8))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("not well-formed UTF-8");
  }
}

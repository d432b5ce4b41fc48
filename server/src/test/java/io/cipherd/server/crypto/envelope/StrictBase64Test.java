package io.cipherd.server.crypto.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link StrictBase64} against {@code java.util.Base64}, which the ciphertext format was defined
 * with.
 */
class StrictBase64Test {
  private final Random random = new Random(4);

  @Test
  void encode_writesWhatJavaUtilBase64Writes_atAnyOffset() {
    for (int length = 0; length < 300; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      byte[] expected = Base64.getEncoder().encode(bytes);
      byte[] src = new byte[length + 5];
      System.arraycopy(bytes, 0, src, 3, length);
      byte[] dst = new byte[expected.length + 7];

      int end = StrictBase64.encode(src, 3, length, dst, 7);

      assertThat(StrictBase64.encodedLength(length)).isEqualTo(expected.length);
      assertThat(end).isEqualTo(7 + expected.length);
      assertThat(Arrays.copyOfRange(dst, 7, end)).isEqualTo(expected);
      // Without slack after the input, the last groups take the byte-wise path.
      byte[] exact = new byte[expected.length];
      assertThat(StrictBase64.encode(bytes, 0, length, exact, 0)).isEqualTo(expected.length);
      assertThat(exact).isEqualTo(expected);
    }
  }

  @Test
  void decode_readsWhatJavaUtilBase64Wrote_atAnyOffset() {
    for (int length = 0; length < 300; length++) {
      byte[] bytes = new byte[length];
      random.nextBytes(bytes);
      byte[] text =
          ("<x>" + Base64.getEncoder().encodeToString(bytes)).getBytes(StandardCharsets.US_ASCII);
      byte[] out = new byte[length + 2];

      int decoded = StrictBase64.decode(text, 3, text.length - 3, out, 2);
      byte[] fromString = new byte[length + 2];
      String asString = new String(text, StandardCharsets.US_ASCII);

      assertThat(decoded).isEqualTo(length);
      assertThat(StrictBase64.decode(asString, 3, text.length - 3, fromString, 2))
          .isEqualTo(length);
      assertThat(Arrays.copyOfRange(fromString, 2, 2 + length)).isEqualTo(bytes);
      assertThat(StrictBase64.decodedLength(text, text.length, text.length - 3)).isEqualTo(length);
      assertThat(Arrays.copyOfRange(out, 2, 2 + length)).isEqualTo(bytes);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "QUJD!",
        "QUJ",
        "Q===",
        "====",
        "QQ=A",
        "Q=QQ",
        "=QQQ",
        "QQ==QUJD",
        "QUJD QUJD",
        "QUJ\u00e9"
      })
  void decode_refusesWhatIsNotPaddedStandardBase64(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
    int decoded = StrictBase64.decode(bytes, 0, bytes.length, new byte[bytes.length], 0);
    assertThat(decoded).isEqualTo(StrictBase64.NOT_BASE64);
    assertThat(StrictBase64.decode(text, 0, text.length(), new byte[text.length()], 0))
        .as("read from the string")
        .isEqualTo(StrictBase64.NOT_BASE64);
  }

  /**
   * A character above 0xff whose low byte is a digit ('\u0141' ends in 0x41, 'A'; '\u013d' in '=')
   * never decodes as that digit: no two texts decode to the same payload.
   */
  @ParameterizedTest
  @ValueSource(strings = {"QUJ\u0141", "\u0141UJD", "QU\u0141DQUJD", "QU\u013d=", "QUJ\u013d"})
  void decode_ofAString_refusesCharactersWhoseLowByteIsADigit(String text) {
    assertThat(StrictBase64.decode(text, 0, text.length(), new byte[text.length()], 0))
        .isEqualTo(StrictBase64.NOT_BASE64);
  }

  @ParameterizedTest
  @ValueSource(strings = {"QR==", "QUJ=", "QUJDQR==", "AB==", "AAB="})
  void decode_refusesStrayBitsBeforeThePadding(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
    assertThat(StrictBase64.decode(bytes, 0, bytes.length, new byte[bytes.length], 0))
        .isEqualTo(StrictBase64.NOT_CANONICAL);
    assertThat(StrictBase64.decode(text, 0, text.length(), new byte[text.length()], 0))
        .isEqualTo(StrictBase64.NOT_CANONICAL);
  }

  /**
   * Random texts over the alphabet and '=': each decodes exactly when java.util.Base64 decodes it
   * and re-encodes to itself (canonical), and then to the same bytes.
   */
  @Test
  void decode_agreesWithJavaUtilBase64PlusCanonicality_onRandomTexts() {
    byte[] alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=="
            .getBytes(StandardCharsets.US_ASCII);
    int accepted = 0;
    for (int i = 0; i < 200_000; i++) {
      byte[] text = new byte[4 * (1 + random.nextInt(3))];
      for (int j = 0; j < text.length; j++) {
        text[j] = alphabet[random.nextInt(alphabet.length)];
      }
      byte[] expected = jdkCanonicalDecode(text);
      byte[] out = new byte[text.length];
      int decoded = StrictBase64.decode(text, 0, text.length, out, 0);
      byte[] fromString = new byte[text.length];
      assertThat(
              StrictBase64.decode(
                  new String(text, StandardCharsets.US_ASCII), 0, text.length, fromString, 0))
          .as("the string decoder's answer")
          .isEqualTo(decoded);
      if (expected == null) {
        assertThat(decoded).as(new String(text, StandardCharsets.US_ASCII)).isNegative();
      } else {
        accepted++;
        assertThat(Arrays.copyOf(out, decoded))
            .as(new String(text, StandardCharsets.US_ASCII))
            .isEqualTo(expected);
        assertThat(Arrays.copyOf(fromString, decoded)).isEqualTo(expected);
      }
    }
    assertThat(accepted).as("the random texts must exercise acceptance too").isGreaterThan(10_000);
  }

  private static byte[] jdkCanonicalDecode(byte[] text) {
    try {
      byte[] decoded = Base64.getDecoder().decode(text);
      return Arrays.equals(Base64.getEncoder().encode(decoded), text) ? decoded : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}

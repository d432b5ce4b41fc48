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
    // Every length up to 300, then some past one 768-byte round of pieces, at each rest length.
    int[] longer = {767, 768, 769, 770, 960, 1151, 1152, 1344, 4124, 9001};
    for (int i = 0; i < 300 + longer.length; i++) {
      int length = i < 300 ? i : longer[i - 300];
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
      // From index 0 of an array of exactly the input, into one of exactly the output.
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

  /**
   * A character above 0x7f at each place the string decoder treats apart: the first quad, the
   * middle of each JDK piece and of the rest after the pieces, the quad before the last, and the
   * last quad itself (as a digit and as padding). U+0141 ends in 0x41 ('A'), U+013D in '=', U+0100
   * in 0x00, U+00C1 is 'A' with its high bit set: each, read as its low byte, would make a valid
   * text.
   */
  @Test
  void decode_ofAString_refusesANonAsciiCharacterAtEveryPlace() {
    for (int quads : new int[] {1, 2, 3, 9, 43, 300, 600}) {
      String valid = "QUJD".repeat(quads - 1) + "QUI=";
      int length = valid.length();
      int[] places = {
        0, 1, 3, 4, 7, length / 2, length / 2 + 1, length - 8, length - 5, length - 4
      };
      for (int place : places) {
        if (place < 0 || place >= length - 1) {
          continue;
        }
        for (char homoglyph : new char[] {'\u0141', '\u013d', '\u0100', '\u00c1'}) {
          String text = valid.substring(0, place) + homoglyph + valid.substring(place + 1);
          assertThat(StrictBase64.decode(text, 0, length, new byte[length], 0))
              .as("U+%04X at %d of %d", (int) homoglyph, place, length)
              .isEqualTo(StrictBase64.NOT_BASE64);
        }
      }
      byte[] out = new byte[length];
      assertThat(StrictBase64.decode(valid, 0, length, out, 0)).isEqualTo(quads * 3 - 1);
    }
  }

  /** '=' anywhere before the final padding, in a text long enough to go through the JDK. */
  @Test
  void decode_ofAString_refusesPaddingInsideTheText() {
    String valid = "QUJD".repeat(100);
    for (int place = 0; place < valid.length() - 2; place++) {
      String text = valid.substring(0, place) + '=' + valid.substring(place + 1);
      byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
      assertThat(StrictBase64.decode(text, 0, text.length(), new byte[text.length()], 0))
          .as("'=' at %d", place)
          .isEqualTo(StrictBase64.NOT_BASE64);
      assertThat(StrictBase64.decode(bytes, 0, bytes.length, new byte[bytes.length], 0))
          .isEqualTo(StrictBase64.NOT_BASE64);
    }
    // A whole padded quad ending a piece (the 256-character one) or the rest after it, or
    // anywhere in the rest.
    for (int end = 32; end < valid.length(); end *= 2) {
      String text = valid.substring(0, end - 4) + "QQ==" + valid.substring(end);
      assertThat(StrictBase64.decode(text, 0, text.length(), new byte[text.length()], 0))
          .as("padding ending at %d", end)
          .isEqualTo(StrictBase64.NOT_BASE64);
    }
  }

  /** Lengths that are a multiple of 4 whose padding is misplaced or missing. */
  @ParameterizedTest
  @ValueSource(
      strings = {"QUJDQ===", "QUJD====", "QUJDQ=Q=", "QUJD=QQQ", "QUJDQUJ=QUJD", "QUJD=UJD"})
  void decode_refusesBadPaddingInATextOfWholeQuads(String text) {
    String longer = "QUJD".repeat(60) + text;
    for (String candidate : new String[] {text, longer}) {
      byte[] bytes = candidate.getBytes(StandardCharsets.US_ASCII);
      assertThat(StrictBase64.decode(bytes, 0, bytes.length, new byte[bytes.length], 0))
          .isEqualTo(StrictBase64.NOT_BASE64);
      assertThat(StrictBase64.decode(candidate, 0, candidate.length(), new byte[bytes.length], 0))
          .isEqualTo(StrictBase64.NOT_BASE64);
    }
  }

  @Test
  void decode_ofNothing_isNothing() {
    assertThat(StrictBase64.decode("", 0, 0, new byte[0], 0)).isZero();
    assertThat(StrictBase64.decode("<x>", 3, 0, new byte[0], 0)).isZero();
    assertThat(StrictBase64.decode(new byte[0], 0, 0, new byte[0], 0)).isZero();
  }

  /**
   * Round trip at every length 0..300 and a few long ones (more than one 1024-character round of
   * JDK pieces), from the middle of a string into the middle of an array, against java.util.Base64;
   * the bytes around the payload are untouched.
   */
  @Test
  void decode_ofAString_roundTripsAgainstJavaUtilBase64_atEveryLength() {
    int[] longer = {766, 767, 768, 769, 1500, 4124, 9000};
    for (int length = 0; length < 300 + longer.length; length++) {
      int size = length < 300 ? length : longer[length - 300];
      byte[] bytes = new byte[size];
      random.nextBytes(bytes);
      String text = "<k/v1:gcm>" + Base64.getEncoder().encodeToString(bytes) + "tail";
      int base64Length = text.length() - 10 - 4;
      byte[] out = new byte[size + 10];
      Arrays.fill(out, (byte) 0x5a);

      int decoded = StrictBase64.decode(text, 10, base64Length, out, 5);

      assertThat(decoded).as("length %d", size).isEqualTo(size);
      assertThat(Arrays.copyOfRange(out, 5, 5 + size)).isEqualTo(bytes);
      assertThat(Arrays.copyOfRange(out, 0, 5)).containsOnly((byte) 0x5a);
      assertThat(Arrays.copyOfRange(out, 5 + size, out.length)).containsOnly((byte) 0x5a);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"QR==", "QUJ=", "QUJDQR==", "AB==", "AAB="})
  void decode_refusesStrayBitsBeforeThePadding(String text) {
    // Also after a bulk long enough to go through the JDK's pieces.
    for (String candidate : new String[] {text, "QUJD".repeat(57) + text}) {
      byte[] bytes = candidate.getBytes(StandardCharsets.US_ASCII);
      assertThat(StrictBase64.decode(bytes, 0, bytes.length, new byte[bytes.length], 0))
          .isEqualTo(StrictBase64.NOT_CANONICAL);
      assertThat(StrictBase64.decode(candidate, 0, candidate.length(), new byte[bytes.length], 0))
          .isEqualTo(StrictBase64.NOT_CANONICAL);
    }
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

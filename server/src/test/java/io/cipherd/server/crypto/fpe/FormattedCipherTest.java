package io.cipherd.server.crypto.fpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.errors.InvalidArgumentException;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link FormattedCipher}: NIST's FF1 samples through the digit and lower-alphanumeric templates
 * (where a template encrypts every character, it is plain FF1), then what each template keeps and
 * changes, the card's Luhn residue, the version prefix and the refusals.
 */
class FormattedCipherTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final Ff1 NIST_KEY = Ff1.withKey(HEX.parseHex("2b7e151628aed2a6abf7158809cf4f3c"));
  private static final Ff1 KEY = Ff1.withKey(HEX.parseHex("00112233445566778899aabbccddeeff"));
  private static final byte[] TWEAK = FpeTweak.of("cards", "users.card_number".getBytes());

  private static FpeFormat template(FormatTemplate template) {
    return FpeFormat.ofTemplate(template, false, 0);
  }

  @ParameterizedTest(name = "NIST sample: {0} under tweak {1}")
  @CsvSource({
    "DIGITS, '', 0123456789, 2433477484",
    "DIGITS, 39383736353433323130, 0123456789, 6124200773",
    "LOWER_ALPHANUMERIC, 3737373770717273373737, 0123456789abcdefghi, a9tv40mll9kdu509eum",
  })
  void wholeValueTemplates_areFf1_asNistSamplesSay(
      FormatTemplate template, String tweakHex, String plaintext, String ciphertext) {
    byte[] tweak = tweakHex == null ? new byte[0] : HEX.parseHex(tweakHex);
    assertThat(FormattedCipher.encrypt(template(template), NIST_KEY, tweak, plaintext, 1))
        .isEqualTo(ciphertext);
    assertThat(FormattedCipher.decrypt(template(template), NIST_KEY, tweak, ciphertext))
        .isEqualTo(plaintext);
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "DIGITS, 4111111111111111",
    "LOWER_ALPHANUMERIC, a1b2c3d4e5",
    "ALPHANUMERIC, Zx9Yw8Vu7T",
    "CARD_NUMBER_LAST_FOUR, 4111 1111 1111 1111",
    "CARD_NUMBER_LAST_FOUR, 5500-0000-0000-0004",
    "CARD_NUMBER_LAST_FOUR, 378282246310005",
    "PHONE_NUMBER, +44 20 7946 0958",
    "PHONE_NUMBER, +1 (415) 555-2671",
    "PHONE_NUMBER, +358.40.123.4567",
  })
  void everyTemplate_roundTrips_andKeepsTheShape(FormatTemplate template, String value) {
    String ciphertext = FormattedCipher.encrypt(template(template), KEY, TWEAK, value, 1);

    assertThat(ciphertext).isNotEqualTo(value).hasSameSizeAs(value);
    assertThat(shape(ciphertext)).isEqualTo(shape(value));
    assertThat(FormattedCipher.decrypt(template(template), KEY, TWEAK, ciphertext))
        .isEqualTo(value);
    assertThat(FormattedCipher.decrypt(template(template), KEY, new byte[32], ciphertext))
        .as("another tweak decrypts to another value of the shape, not an error")
        .isNotEqualTo(value)
        .hasSameSizeAs(value);
  }

  @Test
  void cardNumber_keepsFirstSixLastFourAndLuhnValidity_overRandomCards() {
    FpeFormat card = FpeFormat.ofTemplate(FormatTemplate.CARD_NUMBER, true, 0);
    SplittableRandom random = new SplittableRandom(34);
    for (int i = 0; i < 200; i++) {
      int length = 15 + random.nextInt(5);
      String value = randomDigits(random, length);
      String ciphertext = FormattedCipher.encrypt(card, KEY, TWEAK, value, 1);

      assertThat(ciphertext.substring(0, 6)).isEqualTo(value.substring(0, 6));
      assertThat(ciphertext.substring(length - 4)).isEqualTo(value.substring(length - 4));
      assertThat(Luhn.residue(digits(ciphertext))).isEqualTo(Luhn.residue(digits(value)));
      assertThat(FormattedCipher.decrypt(card, KEY, TWEAK, ciphertext)).isEqualTo(value);
    }
  }

  @Test
  void cardNumberLastFour_keepsOnlyTheLastFour_andAValidNumberStaysValid() {
    FpeFormat card = template(FormatTemplate.CARD_NUMBER_LAST_FOUR);
    String visa = "4111111111111111";
    String ciphertext = FormattedCipher.encrypt(card, KEY, TWEAK, visa, 1);

    assertThat(Luhn.residue(digits(visa))).isZero();
    assertThat(Luhn.residue(digits(ciphertext))).isZero();
    assertThat(ciphertext).endsWith("1111").doesNotStartWith("411111");
  }

  @Test
  void phoneNumber_keepsPlusAndCountryCode() {
    FpeFormat phone = template(FormatTemplate.PHONE_NUMBER);
    assertThat(FormattedCipher.encrypt(phone, KEY, TWEAK, "+44 20 7946 0958", 1))
        .startsWith("+44 ");
    assertThat(FormattedCipher.encrypt(phone, KEY, TWEAK, "+1 (415) 555-2671", 1))
        .startsWith("+1 (")
        .doesNotStartWith("+1 (415) 555");
    assertThat(FormattedCipher.encrypt(phone, KEY, TWEAK, "+358401234567", 1)).startsWith("+358");
  }

  @Test
  void cardNumber16_needsAcceptSmallDomain() {
    assertThatThrownBy(
            () ->
                FormattedCipher.encrypt(
                    template(FormatTemplate.CARD_NUMBER), KEY, TWEAK, "4111111111111111", 1))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("100000 values")
        .hasMessageContaining("accept_small_domain");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "DIGITS, 12345, 10 make 100000 values",
    "CARD_NUMBER, 4111 1111 1111, below 10000",
    "PHONE_NUMBER, 4420794609, international format",
    "PHONE_NUMBER, +44 20 7946 0958 1234 5678 9, at most 14 digits",
    "CARD_NUMBER_LAST_FOUR, 4111x111 1111 1111, character 5",
    "CARD_NUMBER_LAST_FOUR, 41111111111, 12 to 19 digits",
    "ALPHANUMERIC, abcdef-ghij, character 7",
  })
  void badValues_areRefusedByPositionOrShape_neverEchoed(
      FormatTemplate template, String value, String message) {
    assertThatThrownBy(() -> FormattedCipher.encrypt(template(template), KEY, TWEAK, value, 1))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining(message)
        .hasMessageNotContaining(value);
  }

  @Test
  void hugeValue_isRefusedBeforeItIsRead() {
    String huge = "1".repeat(10 * 1024 * 1024);
    assertThatThrownBy(
            () -> FormattedCipher.encrypt(template(FormatTemplate.DIGITS), KEY, TWEAK, huge, 1))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("at most 1024 characters");
    assertThatThrownBy(
            () ->
                FormattedCipher.encrypt(
                    template(FormatTemplate.DIGITS), KEY, TWEAK, "1".repeat(257), 1))
        .hasMessageContaining("at most 256 encrypted characters");
  }

  @ParameterizedTest(name = "prefix length {0}")
  @ValueSource(ints = {1, 2})
  void versionPrefix_isWrittenFirst_andTheBodyDecrypts(int prefixLength) {
    FpeFormat hex = FpeFormat.ofAlphabet("0123456789abcdef", prefixLength, false, 0);
    String ciphertext = FormattedCipher.encrypt(hex, KEY, TWEAK, "deadbeef", 11);

    assertThat(ciphertext).hasSize(8 + prefixLength).startsWith(prefixLength == 1 ? "b" : "0b");
    assertThat(VersionPrefix.read(hex, ciphertext)).isEqualTo(11);
    assertThat(FormattedCipher.decrypt(hex, KEY, TWEAK, VersionPrefix.body(hex, ciphertext)))
        .isEqualTo("deadbeef");
  }

  @Test
  void wideAlphabet_ofSupplementaryCharacters_roundTrips() {
    StringBuilder alphabet = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      alphabet.appendCodePoint(0x1F300 + i);
    }
    FpeFormat emoji = FpeFormat.ofAlphabet(alphabet.toString(), 2, false, 0);
    String value = alphabet.substring(0, 8) + alphabet.substring(40, 48);
    String ciphertext = FormattedCipher.encrypt(emoji, KEY, TWEAK, value, 299);

    assertThat(VersionPrefix.read(emoji, ciphertext)).isEqualTo(299);
    assertThat(FormattedCipher.decrypt(emoji, KEY, TWEAK, VersionPrefix.body(emoji, ciphertext)))
        .isEqualTo(value);
  }

  /** Where the value's separators are: every character of an alphabet reads as one. */
  private static String shape(String value) {
    return value.replaceAll("[0-9A-Za-z]", "x");
  }

  private static String randomDigits(SplittableRandom random, int length) {
    StringBuilder digits = new StringBuilder();
    for (int i = 0; i < length; i++) {
      digits.append((char) ('0' + random.nextInt(10)));
    }
    return digits.toString();
  }

  private static int[] digits(String value) {
    return value.chars().filter(Character::isDigit).map(c -> c - '0').toArray();
  }
}

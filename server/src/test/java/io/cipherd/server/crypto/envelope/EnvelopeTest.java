package io.cipherd.server.crypto.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs the shared format vectors of {@code proto/testdata/envelopes.json} through {@link Envelope}.
 */
class EnvelopeTest {
  /**
   * A word each vector reason's error message must contain, so the caller learns what is wrong
   * rather than a catch-all "invalid ciphertext".
   */
  private static final Map<String, String> MESSAGE_WORD_BY_REASON =
      Map.ofEntries(
          Map.entry("empty", "empty"),
          Map.entry("header_missing", "header"),
          Map.entry("header_unterminated", "'>'"),
          Map.entry("header_malformed", "header"),
          Map.entry("key_name_invalid", "key name"),
          Map.entry("version_invalid", "version"),
          Map.entry("mode_unknown", "mode"),
          Map.entry("payload_empty", "payload"),
          Map.entry("payload_not_base64", "base64"),
          Map.entry("payload_not_canonical", "canonical"),
          Map.entry("payload_length_invalid", "payload"));

  private static JsonObject vectors() throws IOException {
    String dir = System.getProperty("cipherd.protoTestdata");
    assertThat(dir).as("system property cipherd.protoTestdata (set by surefire)").isNotNull();
    return JsonParser.parseString(Files.readString(Path.of(dir, "envelopes.json")))
        .getAsJsonObject();
  }

  private static Stream<JsonObject> cases(String section) throws IOException {
    JsonArray array = vectors().getAsJsonArray(section);
    return StreamSupport.stream(array.spliterator(), false).map(JsonElement::getAsJsonObject);
  }

  static Stream<Arguments> validCases() throws IOException {
    return cases("valid").map(c -> Arguments.of(c.get("name").getAsString(), c));
  }

  static Stream<Arguments> invalidCases() throws IOException {
    return cases("invalid").map(c -> Arguments.of(c.get("name").getAsString(), c));
  }

  @Test
  void vectorFile_coversEveryModeAndEnoughCases() throws IOException {
    List<JsonObject> valid = cases("valid").toList();
    List<JsonObject> invalid = cases("invalid").toList();

    assertThat(valid.stream().map(c -> c.get("mode").getAsString()).distinct())
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(CipherMode.values()).map(CipherMode::headerName).toList());
    assertThat(valid.size() + invalid.size()).isGreaterThanOrEqualTo(40);
    assertThat(invalid)
        .allSatisfy(
            c -> assertThat(MESSAGE_WORD_BY_REASON).containsKey(c.get("reason").getAsString()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validCases")
  void parse_validVector_yieldsExpectedFields(String name, JsonObject c) {
    ParsedEnvelope envelope = ParsedEnvelope.parse(c.get("ciphertext").getAsString());

    assertThat(envelope.header().keyName()).isEqualTo(c.get("key_name").getAsString());
    assertThat(envelope.header().version()).isEqualTo(c.get("key_version").getAsInt());
    assertThat(envelope.header().mode().headerName()).isEqualTo(c.get("mode").getAsString());
    assertThat(HexFormat.of().formatHex(envelope.payload()))
        .isEqualTo(c.get("payload_hex").getAsString());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validCases")
  void format_validVector_reproducesTheSameText(String name, JsonObject c) {
    String text = c.get("ciphertext").getAsString();
    CipherMode mode = CipherMode.fromHeaderName(c.get("mode").getAsString());
    EnvelopeHeader header =
        new EnvelopeHeader(c.get("key_name").getAsString(), c.get("key_version").getAsInt(), mode);
    byte[] payload = HexFormat.of().parseHex(c.get("payload_hex").getAsString());

    assertThat(ParsedEnvelope.parse(text).format()).isEqualTo(text);
    // Built from the expected fields rather than parsed: the formatter alone must produce the text.
    assertThat(new ParsedEnvelope(header, payload).format()).isEqualTo(text);
    assertThat(
            header.ascii().toStringUtf8()
                + new String(ParsedEnvelope.encodePayload(payload), StandardCharsets.US_ASCII))
        .isEqualTo(text);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("validCases")
  void decodeInPlace_validVector_onceItsHeaderIsRecent_yieldsTheSamePayload(
      String name, JsonObject c) {
    String text = c.get("ciphertext").getAsString();
    ParsedEnvelope parsed = ParsedEnvelope.parse(text);
    byte[] out = new byte[Envelope.maxPayloadLength(text.length())];

    EnvelopeHeader recent = Envelope.recentHeader(text);
    Bytes decoded = Envelope.decodePayloadInPlace(recent, text, out);

    assertThat(recent).isEqualTo(parsed.header());
    assertThat(decoded.toArray()).isEqualTo(parsed.payload());
  }

  /**
   * Read in place, an invalid vector never yields a payload: its header is not a recent one, or its
   * payload does not decode (and the caller parses its bytes to say why).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCases")
  void decodeInPlace_invalidVector_neverYieldsAPayload(String name, JsonObject c)
      throws IOException {
    String text = c.get("ciphertext").getAsString();
    for (JsonObject valid : cases("valid").toList()) {
      Envelope.recentHeader(valid.get("ciphertext").getAsString());
      ParsedEnvelope.parse(valid.get("ciphertext").getAsString());
    }
    byte[] out = new byte[Envelope.maxPayloadLength(text.length()) + 4];

    EnvelopeHeader recent = Envelope.recentHeader(text);

    if (recent != null) {
      assertThat(Envelope.decodePayloadInPlace(recent, text, out)).isNull();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCases")
  void parse_invalidVector_isRejectedNamingTheProblem(String name, JsonObject c) {
    String text = c.get("ciphertext").getAsString();
    String reason = c.get("reason").getAsString();

    InvalidCiphertextException e =
        catchThrowableOfType(InvalidCiphertextException.class, () -> ParsedEnvelope.parse(text));

    assertThat(e).as("%s must be rejected", name).isNotNull();
    assertThat(e.getMessage()).containsIgnoringCase(MESSAGE_WORD_BY_REASON.get(reason));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCases")
  void parse_invalidVectorAsBytes_isRejectedToo(String name, JsonObject c) {
    byte[] bytes = c.get("ciphertext").getAsString().getBytes(StandardCharsets.UTF_8);

    assertThat(
            catchThrowableOfType(
                InvalidCiphertextException.class, () -> ParsedEnvelope.parse(bytes)))
        .isNotNull();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCases")
  void parse_invalidVector_errorNeverEchoesTheCiphertext(String name, JsonObject c) {
    String text = c.get("ciphertext").getAsString();
    InvalidCiphertextException e =
        catchThrowableOfType(InvalidCiphertextException.class, () -> ParsedEnvelope.parse(text));
    assertThat(e).isNotNull();

    String message = e.getMessage();
    int close = text.indexOf('>');
    String payloadText = close >= 0 ? text.substring(close + 1) : text;
    // Short fragments ("==", "A") can occur in any sentence; 4 base64 digits cannot by chance here.
    if (payloadText.length() >= 4) {
      assertThat(message).doesNotContain(payloadText).doesNotContain(payloadText.substring(0, 4));
    }
    if (!text.isEmpty()) {
      assertThat(message).doesNotContain(text);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalidCases")
  void parse_invalidVectorWithWhitespace_saysSo(String name, JsonObject c) {
    String text = c.get("ciphertext").getAsString();
    boolean hasWhitespace = text.chars().anyMatch(ch -> " \t\r\n".indexOf(ch) >= 0);
    InvalidCiphertextException e =
        catchThrowableOfType(InvalidCiphertextException.class, () -> ParsedEnvelope.parse(text));

    assertThat(e).isNotNull();
    if (hasWhitespace && "payload_not_base64".equals(c.get("reason").getAsString())) {
      assertThat(e.getMessage()).as(name).contains("whitespace");
    }
  }

  @Test
  void parse_trailingNewline_saysTheCiphertextEndsWithWhitespace() {
    InvalidCiphertextException e =
        catchThrowableOfType(
            InvalidCiphertextException.class,
            () ->
                ParsedEnvelope.parse(
                    "<payments/v1:gcm>gw5GY34Xkpqq9in8UYlMyOsKre8Gnfy4mPT95w==\n"));

    assertThat(e.getMessage()).contains("ends with whitespace").contains("strip it");
  }

  @Test
  void parse_leadingSpace_saysTheCiphertextStartsWithWhitespace() {
    InvalidCiphertextException e =
        catchThrowableOfType(
            InvalidCiphertextException.class,
            () ->
                ParsedEnvelope.parse(" <payments/v1:gcm>gw5GY34Xkpqq9in8UYlMyOsKre8Gnfy4mPT95w=="));

    assertThat(e.getMessage()).contains("starts with whitespace");
  }

  @Test
  void parse_longGarbagePayload_errorHasNoPayloadText() {
    String payload = "Zm9vYmFy".repeat(100) + "!!!!";
    InvalidCiphertextException e =
        catchThrowableOfType(
            InvalidCiphertextException.class,
            () -> ParsedEnvelope.parse("<payments/v1:gcm>" + payload));

    assertThat(e.getMessage()).doesNotContain("Zm9v").hasSizeLessThan(200);
  }

  @Test
  void parse_null_isRejected() {
    assertThat(
            catchThrowableOfType(
                InvalidCiphertextException.class, () -> ParsedEnvelope.parse((String) null)))
        .isNotNull();
  }

  @Test
  void parseHeader_readsHeaderWithoutValidatingPayload() {
    EnvelopeHeader header = Envelope.peekHeader("<payments/v12:chacha>not base64 at all");

    assertThat(header).isEqualTo(new EnvelopeHeader("payments", 12, CipherMode.CHACHA));
    assertThat(header.toString()).isEqualTo("<payments/v12:chacha>");
  }

  @Test
  void envelopeToString_showsHeaderAndLengthButNoPayload() {
    byte[] payload = HexFormat.of().parseHex("00112233445566778899aabbccddeeff");
    ParsedEnvelope envelope =
        new ParsedEnvelope(new EnvelopeHeader("k", 1, CipherMode.ECB), payload);

    assertThat(envelope.toString())
        .contains("<k/v1:ecb>", "16")
        .doesNotContain(envelope.format().substring("<k/v1:ecb>".length()));
  }

  @Test
  void text_isTheHeaderThenTheBase64OfThePayload_inOneExactArray_andParsesBack() {
    EnvelopeHeader header = new EnvelopeHeader("payments", 3, CipherMode.GCM);
    for (int length = 28; length < 60; length++) {
      byte[] payload = new byte[length + 10];
      new Random(length).nextBytes(payload);
      byte[] exact = Arrays.copyOf(payload, length);

      byte[] text = Envelope.text(header, payload, length);

      assertThat(new String(text, StandardCharsets.US_ASCII))
          .isEqualTo("<payments/v3:gcm>" + Base64.getEncoder().encodeToString(exact));
      ParsedEnvelope parsed = ParsedEnvelope.parse(text);
      assertThat(parsed.header()).isEqualTo(header);
      assertThat(parsed.payload()).isEqualTo(exact);
      byte[] out = new byte[Envelope.maxPayloadLength(text.length)];
      assertThat(Envelope.decodePayload(header, text, 0, text.length, out)).isEqualTo(length);
      assertThat(Arrays.copyOf(out, length)).isEqualTo(exact);
    }
  }

  @Test
  void parseHeader_readsARangeOfALargerArray() {
    byte[] text = "xx<orders/v12:chacha>AAAA>yy".getBytes(StandardCharsets.US_ASCII);
    EnvelopeHeader header = Envelope.parseHeader(text, 2, text.length - 4);
    assertThat(header).isEqualTo(new EnvelopeHeader("orders", 12, CipherMode.CHACHA));
  }

  @Test
  void parseHeader_findsARecentHeaderWithoutParsingAgain_butNeverConfusesNearOnes() {
    byte[] v1 = "<recent/v1:gcm>AAAA".getBytes(StandardCharsets.US_ASCII);
    byte[] v2 = "<recent/v2:gcm>AAAA".getBytes(StandardCharsets.US_ASCII);
    byte[] cbc = "<recent/v1:cbc>AAAA".getBytes(StandardCharsets.US_ASCII);

    EnvelopeHeader first = Envelope.parseHeader(v1, 0, v1.length);

    assertThat(Envelope.parseHeader(v1, 0, v1.length)).isSameAs(first);
    assertThat(Envelope.parseHeader(v2, 0, v2.length).version()).isEqualTo(2);
    assertThat(Envelope.parseHeader(cbc, 0, cbc.length).mode()).isEqualTo(CipherMode.CBC);
    assertThat(Envelope.parseHeader(v1, 0, v1.length).version()).isEqualTo(1);
  }
}

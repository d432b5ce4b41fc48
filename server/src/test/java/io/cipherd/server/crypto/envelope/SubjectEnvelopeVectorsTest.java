package io.cipherd.server.crypto.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs {@code proto/testdata/subject_envelopes.json}: the file is what {@link
 * SubjectEnvelopeVectors} writes, its valid texts parse and re-format through {@link Envelope}, its
 * invalid ones are refused with a message that says what is wrong, and its gcm and chacha known
 * answers decrypt with the JDK's own AES-GCM and ChaCha20-Poly1305 given the subject key, the ref
 * and the documented associated data: not through the server's envelope or mode code.
 */
class SubjectEnvelopeVectorsTest {
  private static final HexFormat HEX = HexFormat.of();
  private static final Map<String, String> WORD =
      Map.of(
          "subject_mode_invalid", "subject",
          "version_invalid", "version",
          "payload_length_invalid", "payload");

  static Path file() {
    String dir = System.getProperty("cipherd.protoTestdata");
    assertThat(dir).as("system property cipherd.protoTestdata (set by surefire)").isNotNull();
    return Path.of(dir, "subject_envelopes.json");
  }

  static JsonObject vectors() throws Exception {
    return JsonParser.parseString(Files.readString(file())).getAsJsonObject();
  }

  static Stream<JsonObject> cases(String kind) throws Exception {
    return vectors().getAsJsonArray(kind).asList().stream().map(e -> e.getAsJsonObject());
  }

  static Stream<JsonObject> valid() throws Exception {
    return cases("valid");
  }

  static Stream<JsonObject> invalid() throws Exception {
    return cases("invalid");
  }

  static Stream<JsonObject> knownAnswers() throws Exception {
    return cases("known_answers");
  }

  @Test
  void theFile_isWhatTheGeneratorWrites() throws Exception {
    assertThat(Files.readString(file())).isEqualTo(SubjectEnvelopeVectors.generate());
  }

  @ParameterizedTest
  @MethodSource("valid")
  void aValidText_parsesToItsFields_andFormatsBackTheSame(JsonObject c) {
    byte[] text = c.get("ciphertext").getAsString().getBytes(StandardCharsets.US_ASCII);
    EnvelopeHeader header = Envelope.parseHeader(text, 0, text.length);
    byte[] payload = new byte[Envelope.maxPayloadLength(text.length)];
    int length = Envelope.decodePayload(header, text, 0, text.length, payload);

    assertThat(header.isSubjectBound()).isTrue();
    assertThat(header.version()).isZero();
    assertThat(header.keyName()).isEqualTo(c.get("key_name").getAsString());
    assertThat(header.mode().headerName()).isEqualTo(c.get("mode").getAsString());
    byte[] ref = Envelope.subjectRef(new Bytes(payload, 0, length));
    assertThat(HEX.formatHex(ref)).isEqualTo(c.get("ref_hex").getAsString());
    byte[] modePayload = Arrays.copyOfRange(payload, 16, length);
    assertThat(HEX.formatHex(modePayload)).isEqualTo(c.get("payload_hex").getAsString());
    assertThat(Envelope.subjectText(header, ref, modePayload, modePayload.length)).isEqualTo(text);
    assertThat(Envelope.peekSubjectRef(c.get("ciphertext").getAsString())).isEqualTo(ref);
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void anInvalidText_isRefused_sayingWhatIsWrong_withoutEchoingIt(JsonObject c) {
    String ciphertext = c.get("ciphertext").getAsString();
    byte[] text = ciphertext.getBytes(StandardCharsets.US_ASCII);
    InvalidCiphertextException e =
        catchThrowableOfType(
            InvalidCiphertextException.class,
            () -> {
              EnvelopeHeader header = Envelope.parseHeader(text, 0, text.length);
              Envelope.decodePayload(
                  header, text, 0, text.length, new byte[Envelope.maxPayloadLength(text.length)]);
            });
    assertThat(e).as(c.get("name").getAsString()).isNotNull();
    assertThat(e.getMessage()).containsIgnoringCase(WORD.get(c.get("reason").getAsString()));
    assertThat(e.getMessage()).doesNotContain(ciphertext.substring(ciphertext.indexOf('>') + 1));
  }

  @ParameterizedTest
  @MethodSource("knownAnswers")
  void aKnownAnswer_decryptsWithThePlainJdkCipher(JsonObject c) throws Exception {
    String mode = c.get("mode").getAsString();
    String ciphertext = c.get("ciphertext").getAsString();
    String header = c.get("header").getAsString();
    assertThat(ciphertext).startsWith(header);
    byte[] payload = Base64.getDecoder().decode(ciphertext.substring(header.length()));
    byte[] ref = Arrays.copyOf(payload, 16);
    assertThat(HEX.formatHex(ref)).isEqualTo(c.get("ref_hex").getAsString());
    byte[] key = HEX.parseHex(c.get("subject_key_hex").getAsString());
    byte[] context = HEX.parseHex(c.get("context_hex").getAsString());
    byte[] aad = concat(header.getBytes(StandardCharsets.US_ASCII), ref, context);
    if (mode.equals("xgcm")) {
      // XAES-256-GCM has no JDK cipher: its derivation is checked by XaesTest against C2SP's
      // vectors; here, through the mode family with the documented AAD.
      CipherMode xgcm = CipherMode.XGCM;
      byte[] body = Arrays.copyOfRange(payload, 16, payload.length);
      assertThat(Arrays.copyOf(body, 24)).isEqualTo(HEX.parseHex(c.get("nonce_hex").getAsString()));
      try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
        byte[] out = new byte[body.length];
        int n =
            xgcm.family()
                .open(
                    pools,
                    new SecretKeySpec(key, "AES"),
                    concat(header.getBytes(StandardCharsets.US_ASCII), ref),
                    Bytes.of(context),
                    Bytes.of(body),
                    out);
        assertThat(HEX.formatHex(out, 0, n)).isEqualTo(c.get("plaintext_hex").getAsString());
      }
      return;
    }
    byte[] nonce = Arrays.copyOfRange(payload, 16, 28);
    assertThat(HEX.formatHex(nonce)).isEqualTo(c.get("nonce_hex").getAsString());
    Cipher cipher;
    if (mode.equals("gcm")) {
      cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(
          Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, nonce));
    } else {
      cipher = Cipher.getInstance("ChaCha20-Poly1305");
      cipher.init(
          Cipher.DECRYPT_MODE, new SecretKeySpec(key, "ChaCha20"), new IvParameterSpec(nonce));
    }
    cipher.updateAAD(aad);
    byte[] plaintext = cipher.doFinal(payload, 28, payload.length - 28);
    assertThat(HEX.formatHex(plaintext)).isEqualTo(c.get("plaintext_hex").getAsString());
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] p : parts) {
      length += p.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}

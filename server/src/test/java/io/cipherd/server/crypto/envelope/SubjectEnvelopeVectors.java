package io.cipherd.server.crypto.envelope;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.spec.SecretKeySpec;

/**
 * Writes {@code proto/testdata/subject_envelopes.json} from fixed inputs: the subject-bound format
 * vectors (valid and invalid texts) and known answers sealed by the server's mode families with
 * chosen nonces. {@code SubjectEnvelopeVectorsTest} checks that the file is what this writes, and
 * decrypts the known answers with the JDK's plain ciphers. Run {@link #main} to rewrite it.
 */
final class SubjectEnvelopeVectors {
  private static final HexFormat HEX = HexFormat.of();

  private SubjectEnvelopeVectors() {}

  /** Rewrites the file in {@code args[0]} (proto/testdata). */
  public static void main(String[] args) throws Exception {
    Files.writeString(Path.of(args[0], "subject_envelopes.json"), generate());
  }

  static String generate() {
    JsonObject root = new JsonObject();
    root.addProperty(
        "description",
        "Subject-bound ciphertext vectors for <NAME/s:MODE>BASE64 (proto/README.md, 'Subject-bound"
            + " ciphertexts'): payload = ref (16) || the mode's payload, AAD = ASCII(header) || ref"
            + " || context. 'valid' cases parse with exactly the listed fields and re-format to the"
            + " identical text; 'invalid' cases are refused; 'known_answers' decrypt with the"
            + " subject key (hex) to the plaintext (hex), the nonce being the mode's payload's first"
            + " bytes.");
    JsonObject reasons = new JsonObject();
    reasons.addProperty(
        "subject_mode_invalid",
        "a subject-bound header names a mode other than gcm, chacha or xgcm");
    reasons.addProperty(
        "version_invalid", "the part between '/' and ':' is neither 'v' + a version nor 's'");
    reasons.addProperty(
        "payload_length_invalid",
        "the payload is shorter than the 16-byte ref plus the mode's minimum");
    root.add("reasons", reasons);

    JsonArray knownAnswers = new JsonArray();
    JsonArray valid = new JsonArray();
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      int n = 0;
      for (CipherMode mode :
          new CipherMode[] {CipherMode.GCM, CipherMode.CHACHA, CipherMode.XGCM}) {
        for (String[] input : new String[][] {{"", ""}, {"ada@example.com", "users.email"}}) {
          n++;
          byte[] key = bytes(32, 0x10 + n);
          byte[] ref = bytes(16, 0x80 + n);
          byte[] nonce = bytes(mode.ivLength(), 0x40 + n);
          byte[] plaintext = input[0].getBytes(StandardCharsets.UTF_8);
          byte[] context = input[1].getBytes(StandardCharsets.UTF_8);
          EnvelopeHeader header = EnvelopeHeader.subjectBound("users", mode);
          byte[] payload =
              mode.family()
                  .sealWithInsecureIv(
                      pools,
                      mode.family().prepare(new SecretKeySpec(key, mode.keyAlgorithm())),
                      nonce,
                      Envelope.subjectAad(header, ref),
                      context,
                      plaintext);
          String ciphertext =
              new String(
                  Envelope.subjectText(header, ref, payload, payload.length),
                  StandardCharsets.US_ASCII);
          String name =
              mode.headerName() + (plaintext.length == 0 ? "_empty" : "_email_with_context");
          JsonObject answer = new JsonObject();
          answer.addProperty("name", name);
          answer.addProperty("mode", mode.headerName());
          answer.addProperty("header", header.text());
          answer.addProperty("subject_key_hex", HEX.formatHex(key));
          answer.addProperty("ref_hex", HEX.formatHex(ref));
          answer.addProperty("nonce_hex", HEX.formatHex(nonce));
          answer.addProperty("context_hex", HEX.formatHex(context));
          answer.addProperty("plaintext_hex", HEX.formatHex(plaintext));
          answer.addProperty("ciphertext", ciphertext);
          knownAnswers.add(answer);
          JsonObject format = new JsonObject();
          format.addProperty("name", name);
          format.addProperty("ciphertext", ciphertext);
          format.addProperty("key_name", "users");
          format.addProperty("mode", mode.headerName());
          format.addProperty("subject_bound", true);
          format.addProperty("ref_hex", HEX.formatHex(ref));
          format.addProperty("payload_hex", HEX.formatHex(payload));
          valid.add(format);
        }
      }
    }
    root.add("valid", valid);
    JsonArray invalid = new JsonArray();
    String body = Base64.getEncoder().encodeToString(bytes(44, 1));
    invalid.add(
        bad(
            "siv_is_not_subject_bound",
            "<users/s:siv>" + Base64.getEncoder().encodeToString(bytes(32, 1)),
            "subject_mode_invalid"));
    invalid.add(
        bad(
            "cbc_is_not_subject_bound",
            "<users/s:cbc>" + Base64.getEncoder().encodeToString(bytes(48, 1)),
            "subject_mode_invalid"));
    invalid.add(bad("uppercase_s", "<users/S:gcm>" + body, "version_invalid"));
    invalid.add(bad("s_with_a_version", "<users/s1:gcm>" + body, "version_invalid"));
    invalid.add(bad("v_and_s", "<users/vs:gcm>" + body, "version_invalid"));
    invalid.add(
        bad(
            "gcm_ref_only_no_mode_payload",
            "<users/s:gcm>" + Base64.getEncoder().encodeToString(bytes(16, 1)),
            "payload_length_invalid"));
    invalid.add(
        bad(
            "gcm_one_byte_short",
            "<users/s:gcm>" + Base64.getEncoder().encodeToString(bytes(43, 1)),
            "payload_length_invalid"));
    invalid.add(
        bad(
            "xgcm_one_byte_short",
            "<users/s:xgcm>" + Base64.getEncoder().encodeToString(bytes(55, 1)),
            "payload_length_invalid"));
    invalid.add(
        bad(
            "ref_shorter_than_16",
            "<users/s:chacha>" + Base64.getEncoder().encodeToString(bytes(10, 1)),
            "payload_length_invalid"));
    root.add("invalid", invalid);
    root.add("known_answers", knownAnswers);
    return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(root) + "\n";
  }

  private static JsonObject bad(String name, String ciphertext, String reason) {
    JsonObject c = new JsonObject();
    c.addProperty("name", name);
    c.addProperty("ciphertext", ciphertext);
    c.addProperty("reason", reason);
    return c;
  }

  /** {@code length} bytes counting up from {@code first}: fixed, distinct per vector. */
  private static byte[] bytes(int length, int first) {
    byte[] b = new byte[length];
    for (int i = 0; i < length; i++) {
      b[i] = (byte) (first + i * 7);
    }
    return b;
  }
}

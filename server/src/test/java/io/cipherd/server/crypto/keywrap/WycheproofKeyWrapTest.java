package io.cipherd.server.crypto.keywrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Wycheproof's vectors for the two steps of {@link RsaAesKeyWrap}: AES key wrap with padding
 * (aes_kwp_test.json, RFC 5649, every key size) and RSA-OAEP with SHA-256 and MGF1-SHA-256 at the
 * import jobs' 3072 and 4096 bits (the vectors with an empty label: the wrap uses none). The files
 * are not in ../shared/testvectors: .ci/fetch-testvectors fetches them (make test-java runs it) and
 * surefire passes their directory as cipherd.extraTestvectors.
 */
class WycheproofKeyWrapTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void aesKwp_everyVector_passes() throws IOException {
    JsonObject root = load("aes_kwp_test.json");
    List<String> failures = new ArrayList<>();
    int ran = 0;
    int valid = 0;
    for (JsonElement g : root.getAsJsonArray("testGroups")) {
      for (JsonElement t : g.getAsJsonObject().getAsJsonArray("tests")) {
        JsonObject test = t.getAsJsonObject();
        boolean expectValid = test.get("result").getAsString().equals("valid");
        String problem;
        try {
          byte[] msg = RsaAesKeyWrap.kwpUnwrap(hex(test, "key"), hex(test, "ct"));
          problem =
              !expectValid
                  ? "an invalid wrap unwrapped"
                  : Arrays.equals(msg, hex(test, "msg")) ? null : "unwraps to other bytes";
        } catch (UnwrapFailedException refused) {
          problem = expectValid ? "a valid wrap did not unwrap" : null;
        }
        if (problem != null) {
          failures.add("tcId " + test.get("tcId").getAsInt() + ": " + problem);
        }
        ran++;
        valid += expectValid ? 1 : 0;
      }
    }
    System.out.printf(
        "wycheproof aes_kwp_test.json: %d run (%d valid), %d failed%n",
        ran, valid, failures.size());

    assertThat(failures).as("failing tcIds").isEmpty();
    assertThat(ran).as("vectors run").isGreaterThanOrEqualTo(250);
    assertThat(valid).as("valid vectors among them").isGreaterThanOrEqualTo(70);
  }

  @ParameterizedTest(name = "RSA-{0}")
  @ValueSource(ints = {3072, 4096})
  void rsaOaepSha256_everyVectorWithoutLabel_passes(int bits) throws Exception {
    JsonObject root = load("rsa_oaep_" + bits + "_sha256_mgf1sha256_test.json");
    List<String> failures = new ArrayList<>();
    int ran = 0;
    int valid = 0;
    for (JsonElement g : root.getAsJsonArray("testGroups")) {
      JsonObject group = g.getAsJsonObject();
      RSAPrivateKey key =
          (RSAPrivateKey)
              KeyFactory.getInstance("RSA")
                  .generatePrivate(
                      new PKCS8EncodedKeySpec(
                          HEX.parseHex(group.get("privateKeyPkcs8").getAsString())));
      for (JsonElement t : group.getAsJsonArray("tests")) {
        JsonObject test = t.getAsJsonObject();
        if (!test.get("label").getAsString().isEmpty()) {
          continue;
        }
        boolean expectValid = test.get("result").getAsString().equals("valid");
        String problem;
        try {
          byte[] msg = RsaAesKeyWrap.oaepDecrypt(key, hex(test, "ct"));
          problem =
              !expectValid
                  ? "an invalid ciphertext decrypted"
                  : Arrays.equals(msg, hex(test, "msg")) ? null : "decrypts to other bytes";
        } catch (UnwrapFailedException refused) {
          problem = expectValid ? "a valid ciphertext did not decrypt" : null;
        }
        if (problem != null) {
          failures.add("tcId " + test.get("tcId").getAsInt() + ": " + problem);
        }
        ran++;
        valid += expectValid ? 1 : 0;
      }
    }
    System.out.printf(
        "wycheproof rsa_oaep_%d_sha256_mgf1sha256_test.json: %d run without a label (%d valid),"
            + " %d failed%n",
        bits, ran, valid, failures.size());

    assertThat(failures).as("failing tcIds").isEmpty();
    assertThat(ran).as("vectors run").isGreaterThanOrEqualTo(10);
    assertThat(valid).as("valid vectors among them").isGreaterThanOrEqualTo(5);
  }

  private static JsonObject load(String file) throws IOException {
    String dir = System.getProperty("cipherd.extraTestvectors");
    assertThat(dir).as("system property cipherd.extraTestvectors (set by surefire)").isNotNull();
    Path path = Path.of(dir, file);
    assertThat(path).as("%s: run .ci/fetch-testvectors (make test-java does)", path).exists();
    return JsonParser.parseString(Files.readString(path)).getAsJsonObject();
  }

  private static byte[] hex(JsonObject test, String field) {
    return HEX.parseHex(test.get(field).getAsString());
  }
}

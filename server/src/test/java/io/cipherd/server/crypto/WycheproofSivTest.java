package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Wycheproof's AES-SIV-CMAC vectors (aes_siv_cmac_test.json, deterministic AEAD with one
 * associated-data component) through siv's {@link ModeFamily}, for the 512-bit keys siv takes. The
 * file is not in ../shared/testvectors: .ci/fetch-testvectors fetches it (make test-java runs it)
 * and surefire passes its directory as cipherd.extraTestvectors.
 */
class WycheproofSivTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void aesSivCmac512_everyVector_passes() throws IOException {
    JsonObject root = load("aes_siv_cmac_test.json");
    assertThat(root.get("algorithm").getAsString()).isEqualTo("AES-SIV-CMAC");
    List<String> failures = new ArrayList<>();
    int ran = 0;
    int valid = 0;
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      for (JsonElement g : root.getAsJsonArray("testGroups")) {
        JsonObject group = g.getAsJsonObject();
        if (!CipherMode.SIV.acceptsKeySize(group.get("keySize").getAsInt())) {
          continue;
        }
        for (JsonElement t : group.getAsJsonArray("tests")) {
          JsonObject test = t.getAsJsonObject();
          String problem = check(pools, test);
          if (problem != null) {
            failures.add("tcId " + test.get("tcId").getAsInt() + ": " + problem);
          }
          ran++;
          valid += test.get("result").getAsString().equals("valid") ? 1 : 0;
        }
      }
    }
    System.out.printf(
        "wycheproof aes_siv_cmac_test.json: %d run with 512-bit keys (%d valid), %d failed%n",
        ran, valid, failures.size());

    assertThat(failures).as("failing tcIds").isEmpty();
    assertThat(ran).as("512-bit vectors run").isGreaterThanOrEqualTo(140);
    assertThat(valid).as("valid vectors among them").isGreaterThanOrEqualTo(35);
  }

  /**
   * What went wrong with one vector, or null: a valid one must encrypt to ct and back, an invalid
   * ct must not open.
   */
  private static String check(CipherSource pools, JsonObject test) {
    SecretKeySpec key = new SecretKeySpec(hex(test, "key"), "AES");
    byte[] aad = hex(test, "aad");
    byte[] msg = hex(test, "msg");
    byte[] ct = hex(test, "ct");
    boolean expectValid = test.get("result").getAsString().equals("valid");
    if (expectValid) {
      byte[] sealed =
          CipherMode.SIV.family().sealWithInsecureIv(pools, key, new byte[0], null, aad, msg);
      if (!Arrays.equals(sealed, ct)) {
        return "encrypts to another ciphertext";
      }
    }
    byte[] out = new byte[ct.length];
    try {
      int length = CipherMode.SIV.family().open(pools, key, null, Bytes.of(aad), Bytes.of(ct), out);
      if (!expectValid) {
        return "an invalid ciphertext decrypted";
      }
      return Arrays.equals(Arrays.copyOf(out, length), msg)
          ? null
          : "decrypts to another plaintext";
    } catch (DecryptionFailedException | IllegalArgumentException refused) {
      // IllegalArgumentException: shorter than the 16-byte synthetic IV, which the envelope refuses
      // first.
      return expectValid ? "a valid ciphertext failed to decrypt" : null;
    }
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

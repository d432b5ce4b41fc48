package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs Google's Wycheproof vectors through {@link PayloadCipher}, the server's own code path, for
 * every test group whose IV and tag sizes our payload layout can carry.
 *
 * <p>Each file's test collects every failing {@code tcId} before asserting, and checks that enough
 * vectors ran, so a changed schema that silently skips everything fails loudly.
 */
class WycheproofTest {
  private static final byte[] NO_HEADER = new byte[0];
  private static final HexFormat HEX = HexFormat.of();

  private static CipherPools decryptPools;

  @BeforeAll
  static void createPools() {
    decryptPools = new CipherPools(CipherPoolConfig.DEFAULT);
  }

  @AfterAll
  static void closePools() {
    decryptPools.close();
  }

  @Test
  void aesGcm_supportedVectors_allPass() throws IOException {
    Tally tally = runAead("aes_gcm_test.json", CipherMode.GCM);

    assertThat(tally.failures).as("failing tcIds").isEmpty();
    assertThat(tally.ran).as("vectors run").isGreaterThanOrEqualTo(190);
    assertThat(tally.ran + tally.skipped).isEqualTo(tally.declared);
  }

  @Test
  void chacha20Poly1305_supportedVectors_allPass() throws IOException {
    Tally tally = runAead("chacha20_poly1305_test.json", CipherMode.CHACHA);

    assertThat(tally.failures).as("failing tcIds").isEmpty();
    assertThat(tally.ran).as("vectors run").isGreaterThanOrEqualTo(300);
    assertThat(tally.ran + tally.skipped).isEqualTo(tally.declared);
  }

  @Test
  void aesCbcPkcs5_supportedVectors_allPass() throws IOException {
    Tally tally = runIndCpa("aes_cbc_pkcs5_test.json", CipherMode.CBC);

    assertThat(tally.failures).as("failing tcIds").isEmpty();
    assertThat(tally.ran).as("vectors run").isGreaterThanOrEqualTo(200);
    assertThat(tally.ran + tally.skipped).isEqualTo(tally.declared);
  }

  /** Counts of one file, and the failures found, as "tcId N: what went wrong". */
  private static final class Tally {
    final List<String> failures = new ArrayList<>();
    int declared;
    int ran;
    int skipped;

    void print(String file) {
      // One line per file so a run shows how much of Wycheproof the server is checked against.
      System.out.printf(
          "wycheproof %s: %d run, %d skipped (unsupported IV/tag/key size), %d failed%n",
          file, ran, skipped, failures.size());
    }
  }

  private static JsonObject load(String file) throws IOException {
    String dir = System.getProperty("cipherd.testvectors");
    assertThat(dir).as("system property cipherd.testvectors (set by surefire)").isNotNull();
    return JsonParser.parseString(Files.readString(Path.of(dir, "wycheproof", file)))
        .getAsJsonObject();
  }

  /** AeadTest groups: payload {@code iv ‖ ct ‖ tag}, Wycheproof's aad as our context, no header. */
  private static Tally runAead(String file, CipherMode mode) throws IOException {
    JsonObject root = load(file);
    assertThat(root.get("schema").getAsString()).isEqualTo("aead_test_schema_v1.json");
    Tally tally = new Tally();
    tally.declared = root.get("numberOfTests").getAsInt();
    for (JsonElement g : root.getAsJsonArray("testGroups")) {
      JsonObject group = g.getAsJsonObject();
      int tests = group.getAsJsonArray("tests").size();
      boolean supported =
          group.get("ivSize").getAsInt() == mode.ivLength() * 8
              && group.get("tagSize").getAsInt() == mode.tagLength() * 8
              && mode.acceptsKeySize(group.get("keySize").getAsInt());
      if (!supported) {
        tally.skipped += tests;
        continue;
      }
      for (JsonElement t : group.getAsJsonArray("tests")) {
        JsonObject test = t.getAsJsonObject();
        Vector v = new Vector(test, mode);
        byte[] aad = hex(test, "aad");
        byte[] payload = concat(v.iv, v.ct, hex(test, "tag"));
        check(tally, mode, v, aad, payload);
        tally.ran++;
      }
    }
    tally.print(file);
    return tally;
  }

  /**
   * IndCpaTest groups (CBC): payload {@code iv ‖ ct}, where ct already holds the PKCS#7 padding.
   */
  private static Tally runIndCpa(String file, CipherMode mode) throws IOException {
    JsonObject root = load(file);
    assertThat(root.get("schema").getAsString()).isEqualTo("ind_cpa_test_schema_v1.json");
    Tally tally = new Tally();
    tally.declared = root.get("numberOfTests").getAsInt();
    for (JsonElement g : root.getAsJsonArray("testGroups")) {
      JsonObject group = g.getAsJsonObject();
      int tests = group.getAsJsonArray("tests").size();
      boolean supported =
          group.get("ivSize").getAsInt() == mode.ivLength() * 8
              && mode.acceptsKeySize(group.get("keySize").getAsInt());
      if (!supported) {
        tally.skipped += tests;
        continue;
      }
      for (JsonElement t : group.getAsJsonArray("tests")) {
        Vector v = new Vector(t.getAsJsonObject(), mode);
        check(tally, mode, v, null, concat(v.iv, v.ct));
        tally.ran++;
      }
    }
    tally.print(file);
    return tally;
  }

  private record Vector(
      int tcId, String result, SecretKeySpec key, byte[] iv, byte[] msg, byte[] ct) {
    Vector(JsonObject test, CipherMode mode) {
      this(
          test.get("tcId").getAsInt(),
          test.get("result").getAsString(),
          new SecretKeySpec(hex(test, "key"), mode.keyAlgorithm()),
          hex(test, "iv"),
          hex(test, "msg"),
          hex(test, "ct"));
    }
  }

  /**
   * Wycheproof semantics: "valid" must encrypt to exactly the expected bytes and decrypt back,
   * "invalid" must not decrypt, "acceptable" may do either but must not decrypt to wrong bytes.
   */
  private static void check(Tally tally, CipherMode mode, Vector v, byte[] aad, byte[] payload) {
    switch (v.result) {
      case "valid" -> {
        checkEncrypt(tally, mode, v, aad, payload);
        checkDecryptsTo(tally, mode, v, aad, payload);
      }
      case "invalid" -> checkRejected(tally, mode, v, aad, payload);
      case "acceptable" -> {
        try {
          byte[] plaintext = decrypt(mode, v, aad, payload);
          if (!Arrays.equals(plaintext, v.msg)) {
            tally.failures.add("tcId " + v.tcId + ": acceptable vector decrypted to other bytes");
          }
        } catch (DecryptionFailedException | InvalidCiphertextException e) {
          // Rejecting an acceptable vector is allowed.
        }
      }
      default -> tally.failures.add("tcId " + v.tcId + ": unknown result " + v.result);
    }
  }

  private static void checkEncrypt(
      Tally tally, CipherMode mode, Vector v, byte[] aad, byte[] expected) {
    // A fresh pool per vector: the JCE refuses to init a Cipher object for encryption with the key
    // and IV of its previous init (for ChaCha20 even when that init decrypted), and many vectors
    // share a key and IV with their neighbours. Random IVs make this moot outside known-answer
    // tests.
    try (CipherPools pools = new CipherPools(new CipherPoolConfig(1, 1, Duration.ofSeconds(5)))) {
      byte[] payload =
          ArrayPayloadCipher.encryptWithInsecureIv(mode, v.key, v.iv, NO_HEADER, aad, v.msg, pools);
      if (!Arrays.equals(payload, expected)) {
        tally.failures.add("tcId " + v.tcId + ": encryption differs from the expected iv‖ct‖tag");
      }
    } catch (RuntimeException e) {
      tally.failures.add("tcId " + v.tcId + ": encryption threw " + e);
    }
  }

  private static void checkDecryptsTo(
      Tally tally, CipherMode mode, Vector v, byte[] aad, byte[] payload) {
    try {
      if (!Arrays.equals(decrypt(mode, v, aad, payload), v.msg)) {
        tally.failures.add("tcId " + v.tcId + ": decryption differs from msg");
      }
    } catch (RuntimeException e) {
      tally.failures.add("tcId " + v.tcId + ": valid vector failed to decrypt: " + e);
    }
  }

  private static void checkRejected(
      Tally tally, CipherMode mode, Vector v, byte[] aad, byte[] payload) {
    try {
      decrypt(mode, v, aad, payload);
      tally.failures.add("tcId " + v.tcId + ": invalid vector decrypted");
    } catch (DecryptionFailedException | InvalidCiphertextException expected) {
      // The two outcomes a caller may see for a bad ciphertext: failed tag/padding, or impossible
      // length.
    } catch (RuntimeException e) {
      tally.failures.add(
          "tcId " + v.tcId + ": invalid vector threw " + e + " instead of a rejection");
    }
  }

  private static byte[] decrypt(CipherMode mode, Vector v, byte[] aad, byte[] payload) {
    return new ArrayPayloadCipher(decryptPools).decrypt(mode, v.key, NO_HEADER, aad, payload);
  }

  private static byte[] hex(JsonObject test, String field) {
    return HEX.parseHex(test.get(field).getAsString());
  }

  private static byte[] concat(byte[]... parts) {
    int length = 0;
    for (byte[] part : parts) {
      length += part.length;
    }
    byte[] out = new byte[length];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, out, at, part.length);
      at += part.length;
    }
    return out;
  }
}

package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.AccessDeniedException;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import io.cipherd.server.security.TestDenials;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Vault Transit's own ciphertexts ({@code proto/testdata/transit_vectors.json}, made by a real
 * Transit and exported with its keys by {@code proto/scripts/make-transit-vectors}) decrypted and
 * rewrapped with the keys imported version by version (a derived key's with its KDF, then rotated
 * so that the key has a version that encrypts); and every way one can fail, as a plain decryption
 * failure.
 */
class TransitCiphertextsTest {
  private static final Base64.Decoder BASE64 = Base64.getDecoder();

  private final Keys keys = Keys.over(new InMemoryKeyStore());
  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final List<String> observed = new ArrayList<>();
  private final CryptoObserver recorder =
      new CryptoObserver() {
        @Override
        public void succeeded(
            CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
          observed.add(operation + " ok " + version);
        }

        @Override
        public void failed(
            CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
          observed.add(operation + " failed " + version);
        }
      };
  private final CryptoEngine engine =
      new CryptoEngine(keys.cache(), pools, Authorizer.ALLOW_ALL, recorder);
  private JsonObject vectors;

  @BeforeEach
  void importTheTransitKeys() throws IOException {
    String dir = System.getProperty("cipherd.protoTestdata");
    vectors =
        JsonParser.parseString(Files.readString(Path.of(dir, "transit_vectors.json")))
            .getAsJsonObject();
    for (JsonElement element : vectors.getAsJsonArray("keys")) {
      JsonObject key = element.getAsJsonObject();
      String name = key.get("name").getAsString();
      CipherMode mode =
          key.get("type").getAsString().startsWith("chacha") ? CipherMode.CHACHA : CipherMode.GCM;
      TransitKdf kdf =
          key.has("kdf") ? TransitKdf.fromStoreName(key.get("kdf").getAsString()) : null;
      assertThat(kdf == null).as("%s's kdf is known", name).isEqualTo(!key.has("kdf"));
      for (Map.Entry<String, JsonElement> version : key.getAsJsonObject("versions").entrySet()) {
        KeyMetadata imported =
            keys.importVersion(
                name, KeyTemplate.of(mode), BASE64.decode(version.getValue().getAsString()), kdf);
        assertThat(imported.currentVersion())
            .as("%s keeps Transit's version numbers", name)
            .isEqualTo(Integer.parseInt(version.getKey()));
      }
      if (kdf != null) {
        keys.rotate(name, KeyTemplate.of(mode));
      }
    }
  }

  @AfterEach
  void closePools() {
    pools.close();
  }

  @Test
  void everyTransitCiphertext_decryptsToItsPlaintext_withItsAssociatedDataOrContextAsContext() {
    int checked = 0;
    for (Case c : cases()) {
      Decrypted decrypted =
          engine.decrypt(c.ciphertext(), c.requestContext(), ExpectedKey.parse(c.key(), "k"));

      assertThat(decrypted.plaintext()).as(c.ciphertext()).isEqualTo(c.plaintext());
      assertThat(decrypted.header().version()).isEqualTo(c.version());
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(100);
    assertThat(observed)
        .contains(
            "DECRYPT ok <v-aes256/v3:gcm>",
            "DECRYPT ok <v-chacha/v2:chacha>",
            "DECRYPT ok <d-aes128/v1:gcm>",
            "DECRYPT ok <d-chacha/v2:chacha>",
            "DECRYPT ok <d-legacy-kdf/v4:gcm>",
            "DECRYPT ok <c-aes256/v2:gcm>",
            "DECRYPT ok <c-v2-aes256/v2:gcm>");
  }

  @Test
  void everyTransitCiphertext_rewrapsToTheKeysCurrentVersion_whichDecryptsIt() {
    for (Case c : cases()) {
      ReEncrypted rewrapped =
          engine.reEncrypt(c.ciphertext(), c.requestContext(), "", ExpectedKey.parse(c.key(), "k"));
      String ciphertext = rewrapped.encrypted().ciphertext().toStringUtf8();
      int current = keys.describe(c.key()).currentVersion();

      assertThat(ciphertext).startsWith("<" + c.key() + "/v" + current + ":");
      assertThat(rewrapped.sourceVersion()).isEqualTo(c.version());
      assertThat(engine.decrypt(ciphertext, c.requestContext()).plaintext())
          .isEqualTo(c.plaintext());
    }
    assertThat(observed).contains("REWRAP ok <v-aes256/v1:gcm>", "REWRAP ok <d-aes256/v3:gcm>");
  }

  @Test
  void aTransitCiphertext_rewrapsIntoAnotherKey() {
    keys.create("orders", KeyTemplate.of(CipherMode.XGCM));
    Case c = cases().get(2);

    ReEncrypted rewrapped =
        engine.reEncrypt(
            c.ciphertext(), c.associatedData(), "orders", ExpectedKey.parse(c.key(), "k"));

    String ciphertext = rewrapped.encrypted().ciphertext().toStringUtf8();
    assertThat(ciphertext).startsWith("<orders/v1:xgcm>");
    assertThat(engine.decrypt(ciphertext, c.associatedData()).plaintext()).isEqualTo(c.plaintext());
  }

  @Test
  void failures_areAllAPlainDecryptionFailure() {
    Case c = casesWithAssociatedData().get(0);
    ExpectedKey key = ExpectedKey.parse(c.key(), "k");
    String other = otherKeyThan(c.key());
    String body = c.ciphertext().substring(c.ciphertext().indexOf(':', 7) + 1);
    byte[] payload = BASE64.decode(body);
    String truncated =
        "vault:v" + c.version() + ":" + Base64.getEncoder().encodeToString(slice(payload, 11));
    String noTag =
        "vault:v" + c.version() + ":" + Base64.getEncoder().encodeToString(slice(payload, 27));
    String otherVersion = "vault:v" + (c.version() % 4 + 1) + ":" + body;
    String absentVersion = "vault:v9:" + body;

    List<Runnable> attempts =
        List.of(
            () -> engine.decrypt(c.ciphertext(), c.associatedData(), ExpectedKey.parse(other, "k")),
            () -> engine.decrypt(truncated, c.associatedData(), key),
            () -> engine.decrypt(noTag, c.associatedData(), key),
            () -> engine.decrypt(otherVersion, c.associatedData(), key),
            () -> engine.decrypt(absentVersion, c.associatedData(), key),
            () -> engine.decrypt(c.ciphertext(), ByteString.copyFromUtf8("row=43"), key),
            () -> engine.decrypt(c.ciphertext(), ByteString.EMPTY, key),
            () -> engine.reEncrypt(c.ciphertext(), ByteString.copyFromUtf8("row=43"), "", key));
    for (Runnable attempt : attempts) {
      assertThatThrownBy(attempt::run)
          .isInstanceOf(DecryptionFailedException.class)
          .hasMessage("decryption failed");
    }
  }

  @Test
  void aConvergentKey_madeOneCiphertextOfOnePlaintextUnderOneContext() {
    List<Case> convergent = cases().stream().filter(c -> c.key().startsWith("c-")).toList();

    assertThat(convergent).isNotEmpty();
    assertThat(convergent.stream().map(Case::ciphertext).distinct().count())
        .as("Transit's convergent ciphertexts repeat, which the vectors rely on")
        .isLessThan(convergent.size());
  }

  @Test
  void aDerivedKeysCiphertext_withoutContext_isAnInvalidArgument_namingContext() {
    Case c = derivedCases().get(0);

    for (Runnable attempt :
        List.<Runnable>of(
            () -> engine.decrypt(c.ciphertext(), ByteString.EMPTY, ExpectedKey.parse(c.key(), "k")),
            () ->
                engine.reEncrypt(
                    c.ciphertext(), ByteString.EMPTY, "", ExpectedKey.parse(c.key(), "k")))) {
      assertThatThrownBy(attempt::run)
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("derived Vault Transit key")
          .hasMessageContaining("context");
    }
  }

  @Test
  void derivedAndConvergentFailures_areAllAPlainDecryptionFailure() {
    Case c = derivedCases().get(0);
    Case convergent = cases().stream().filter(x -> x.key().equals("c-aes256")).findFirst().get();
    ExpectedKey key = ExpectedKey.parse(c.key(), "k");
    ByteString otherContext =
        derivedCases().stream()
            .map(Case::context)
            .filter(x -> !x.equals(c.context()))
            .findFirst()
            .orElseThrow();

    List<Runnable> attempts =
        List.of(
            () -> engine.decrypt(c.ciphertext(), otherContext, key),
            () -> engine.reEncrypt(c.ciphertext(), otherContext, "", key),
            () ->
                engine.decrypt(
                    c.ciphertext(),
                    c.context().concat(ByteString.copyFromUtf8("x")),
                    ExpectedKey.parse(c.key(), "k")),
            // d-legacy-kdf is restored from d-aes256's backup: the same bytes, the other KDF.
            () ->
                engine.decrypt(c.ciphertext(), c.context(), ExpectedKey.parse("d-legacy-kdf", "k")),
            () ->
                engine.decrypt(
                    convergent.ciphertext(),
                    convergent.context(),
                    ExpectedKey.parse("d-aes256", "k")));
    for (Runnable attempt : attempts) {
      assertThatThrownBy(attempt::run)
          .isInstanceOf(DecryptionFailedException.class)
          .hasMessage("decryption failed");
    }
  }

  @Test
  void aDerivedKeysVersion_neverEncrypts() {
    keys.importVersion(
        "derived", KeyTemplate.of(CipherMode.GCM), new byte[32], TransitKdf.HKDF_SHA256);

    assertThatThrownBy(() -> keys.forEncryption("derived", 0))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("derived Vault Transit key");
    assertThat(keys.describe("derived").version(1).transitKdf()).isEqualTo(TransitKdf.HKDF_SHA256);
  }

  @Test
  void aTransitKdf_importsOnlyGcmAndChachaVersions() {
    assertThatThrownBy(
            () ->
                keys.importVersion(
                    "derived",
                    KeyTemplate.of(CipherMode.XGCM),
                    new byte[32],
                    TransitKdf.HMAC_SHA256_COUNTER))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("transit_kdf");
  }

  @Test
  void aVersionCipherdMadeItself_opensNoTransitCiphertext() {
    Case c = cases().get(0);
    keys.rotate(c.key(), KeyTemplate.of(CipherMode.GCM));
    int made = keys.describe(c.key()).currentVersion();
    String body = c.ciphertext().substring(c.ciphertext().indexOf(':', 7) + 1);

    assertThatThrownBy(
            () ->
                engine.decrypt(
                    "vault:v" + made + ":" + body,
                    c.associatedData(),
                    ExpectedKey.parse(c.key(), "k")))
        .isInstanceOf(DecryptionFailedException.class);
  }

  @Test
  void withoutAnExactExpectedKey_isAnInvalidArgument_namingTheField() {
    Case c = cases().get(0);

    for (ExpectedKey expected :
        List.of(ExpectedKey.ANY, ExpectedKey.parse(c.key().substring(0, 3) + "*", "k"))) {
      assertThatThrownBy(() -> engine.decrypt(c.ciphertext(), c.associatedData(), expected))
          .isInstanceOf(InvalidArgumentException.class)
          .hasMessageContaining("expected_key");
    }
  }

  @Test
  void aMalformedTransitCiphertext_isAnInvalidCiphertext() {
    ExpectedKey key = ExpectedKey.parse("v-aes256", "k");
    for (String malformed :
        List.of(
            "vault:v", "vault:v1", "vault:v:AAAA", "vault:vx:AAAA", "vault:v1:", "vault:v1:@@")) {
      assertThatThrownBy(() -> engine.decrypt(malformed, ByteString.EMPTY, key))
          .as(malformed)
          .isInstanceOf(InvalidCiphertextException.class);
    }
  }

  @Test
  void theKeysMinimumDecryptionVersion_refusesOlderTransitCiphertexts() {
    keys.updatePolicy("v-aes256", KeyPolicy.DEFAULT.withMinDecryptionVersionAtLeast(2));
    Case v1 = cases().get(1);
    assertThat(v1.version()).isEqualTo(1);

    assertThatThrownBy(
            () ->
                engine.decrypt(
                    v1.ciphertext(), v1.associatedData(), ExpectedKey.parse(v1.key(), "k")))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void aCallerWithoutDecrypt_isRefusedBeforeAnyKeyIsRead() {
    Case c = cases().get(0);
    CryptoEngine refusing = new CryptoEngine(keys.cache(), pools, new DenyingDecrypt(), recorder);

    assertThatThrownBy(
            () ->
                refusing.decrypt(
                    c.ciphertext(), c.associatedData(), ExpectedKey.parse(c.key(), "k")))
        .isInstanceOf(AccessDeniedException.class);
    assertThatThrownBy(
            () ->
                refusing.reEncrypt(
                    c.ciphertext(), c.associatedData(), "", ExpectedKey.parse(c.key(), "k")))
        .isInstanceOf(AccessDeniedException.class);
    assertThat(observed).isEmpty();
  }

  /** Allows everything but decrypt. */
  private static final class DenyingDecrypt implements Authorizer {
    @Override
    public void check(Operation operation, String keyName) {
      if (operation == Operation.DECRYPT) {
        throw TestDenials.denied();
      }
    }

    @Override
    public boolean allows(Operation operation, String keyName) {
      return operation != Operation.DECRYPT;
    }

    @Override
    public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {}

    @Override
    public void checkReIndex(String sourceKey, KeyType sourceType) {}
  }

  /**
   * A Transit ciphertext: {@code context} is Transit's (the KDF input) for a derived key's, empty
   * for a plain key's, whose {@code associatedData} may be set.
   */
  private record Case(
      String key,
      String ciphertext,
      byte[] plaintext,
      ByteString associatedData,
      ByteString context) {
    int version() {
      return Integer.parseInt(ciphertext.substring(7, ciphertext.indexOf(':', 7)));
    }

    /** The request's context: Transit's context for a derived key, else its associated data. */
    ByteString requestContext() {
      return context.isEmpty() ? associatedData : context;
    }
  }

  private List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    for (JsonElement element : vectors.getAsJsonArray("keys")) {
      JsonObject key = element.getAsJsonObject();
      for (JsonElement item : key.getAsJsonArray("cases")) {
        JsonObject c = item.getAsJsonObject();
        cases.add(
            new Case(
                key.get("name").getAsString(),
                c.get("ciphertext").getAsString(),
                BASE64.decode(c.get("plaintext").getAsString()),
                ByteString.copyFrom(BASE64.decode(c.get("associated_data").getAsString())),
                ByteString.copyFrom(BASE64.decode(c.get("context").getAsString()))));
      }
    }
    return cases;
  }

  private List<Case> derivedCases() {
    return cases().stream().filter(c -> !c.context().isEmpty()).toList();
  }

  private List<Case> casesWithAssociatedData() {
    return cases().stream().filter(c -> !c.associatedData().isEmpty()).toList();
  }

  private String otherKeyThan(String name) {
    return cases().stream().map(Case::key).filter(k -> !k.equals(name)).findFirst().orElseThrow();
  }

  private static byte[] slice(byte[] bytes, int length) {
    byte[] out = new byte[length];
    System.arraycopy(bytes, 0, out, 0, length);
    return out;
  }
}

package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.engine.ExpectedKey;
import io.cipherd.server.engine.ReEncrypted;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyTemplate;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Transit round trip on a real Vault: keys made by its Transit engine (one rotated three times
 * with its minimum decryption version raised, one chacha20-poly1305), ciphertexts made by Transit
 * with and without associated data, the keys exported and imported version by version into cipherd
 * keys kept in the same Vault's KV, every ciphertext decrypted by cipherd and compared, rewrapped,
 * and the rewrapped ones decrypted by another replica; a derived key (rotated, several contexts)
 * and a convergent one, imported with their KDF, their KV entries read back by the other replica.
 */
@Tag("vault")
@Timeout(120)
class TransitImportVaultTest {
  private static final Base64.Encoder BASE64 = Base64.getEncoder();

  private VaultDevServer vault;
  private Replica a;
  private Replica b;

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    a = new Replica(vault.config("cipherd/keys"));
    b = new Replica(vault.config("cipherd/keys"));
    vault.callAsRoot("POST", "sys/mounts/transit", "{\"type\":\"transit\"}");
  }

  @AfterEach
  void stop() throws Exception {
    a.close();
    b.close();
    vault.close();
  }

  @Test
  void transitsCiphertexts_decryptAndRewrap_withTheKeyImportedFromIt() throws Exception {
    vault.callAsRoot(
        "POST", "transit/keys/payments", "{\"type\":\"aes256-gcm96\",\"exportable\":true}");
    List<Made> made = new ArrayList<>();
    for (int version = 1; version <= 4; version++) {
      if (version > 1) {
        vault.callAsRoot("POST", "transit/keys/payments/rotate", null);
      }
      made.add(encrypt("payments", "card " + version, "", version));
      made.add(encrypt("payments", "row " + version, "invoice=" + version, version));
    }
    importInto("payments", "payments", CipherMode.GCM, 4);
    vault.callAsRoot("POST", "transit/keys/payments/config", "{\"min_decryption_version\":2}");
    a.keyRing.updatePolicy("payments", KeyPolicy.DEFAULT.withMinDecryptionVersionAtLeast(2));

    int rewrapped = 0;
    for (Made m : made) {
      ExpectedKey key = ExpectedKey.parse("payments", "expected_key");
      if (m.version() < 2) {
        assertThatThrownBy(() -> a.engine.decrypt(m.ciphertext(), m.context(), key))
            .as("below the minimum, as in Transit")
            .isInstanceOfSatisfying(
                CipherdException.class,
                e -> assertThat(e.kind()).isEqualTo(ErrorKind.POLICY_DENIED));
        continue;
      }
      assertThat(text(a.engine.decrypt(m.ciphertext(), m.context(), key).plaintext()))
          .isEqualTo(m.plaintext());
      ReEncrypted cipherd = a.engine.reEncrypt(m.ciphertext(), m.context(), "", key);
      String ciphertext = cipherd.encrypted().ciphertext().toStringUtf8();
      assertThat(ciphertext).startsWith("<payments/v4:gcm>");
      assertThat(cipherd.sourceVersion()).isEqualTo(m.version());
      assertThat(text(b.engine.decrypt(ciphertext, m.context()).plaintext()))
          .as("the rewrapped one, on another replica")
          .isEqualTo(m.plaintext());
      rewrapped++;
    }
    assertThat(rewrapped).isEqualTo(6);
  }

  @Test
  void aChaChaKey_decryptsTransitsCiphertexts_andOtherAssociatedDataFails() throws Exception {
    vault.callAsRoot(
        "POST", "transit/keys/notes", "{\"type\":\"chacha20-poly1305\",\"exportable\":true}");
    vault.callAsRoot("POST", "transit/keys/notes/rotate", null);
    Made note = encrypt("notes", "a note", "tenant=7", 2);
    importInto("notes", "imported-notes", CipherMode.CHACHA, 2);
    ExpectedKey key = ExpectedKey.parse("imported-notes", "expected_key");

    assertThat(text(b.engine.decrypt(note.ciphertext(), note.context(), key).plaintext()))
        .isEqualTo("a note");
    assertThatThrownBy(
            () -> b.engine.decrypt(note.ciphertext(), ByteString.copyFromUtf8("tenant=8"), key))
        .hasMessage("decryption failed");
  }

  @Test
  void derivedAndConvergentKeys_decryptUnderEachContext_andRewrapOnAnotherReplica()
      throws Exception {
    vault.callAsRoot(
        "POST",
        "transit/keys/users",
        "{\"type\":\"aes256-gcm96\",\"derived\":true,\"exportable\":true}");
    vault.callAsRoot(
        "POST",
        "transit/keys/tags",
        "{\"type\":\"chacha20-poly1305\",\"derived\":true,\"convergent_encryption\":true,"
            + "\"exportable\":true}");
    List<Made> made = new ArrayList<>();
    for (int version = 1; version <= 3; version++) {
      if (version > 1) {
        vault.callAsRoot("POST", "transit/keys/users/rotate", null);
        vault.callAsRoot("POST", "transit/keys/tags/rotate", null);
      }
      for (String context : List.of("user-1", "user-2", "tenant=7;row=42")) {
        made.add(encryptDerived("users", "email of " + context + " v" + version, context, version));
        made.add(encryptDerived("tags", "tag " + version, context, version));
      }
    }
    assertThat(made.get(1).ciphertext())
        .as("convergent: one plaintext under one context, one ciphertext")
        .isEqualTo(encryptDerived("tags", "tag 1", "user-1", 1).ciphertext());
    for (String key : List.of("users", "tags")) {
      importDerived(key, key.equals("users") ? CipherMode.GCM : CipherMode.CHACHA, 3);
      a.keyRing.rotate(key, KeyTemplate.of(CipherMode.GCM));
    }

    for (Made m : made) {
      String key = m.plaintext().startsWith("tag") ? "tags" : "users";
      ExpectedKey expected = ExpectedKey.parse(key, "expected_key");
      assertThat(text(b.engine.decrypt(m.ciphertext(), m.context(), expected).plaintext()))
          .as("decrypted by the replica that did not import it")
          .isEqualTo(m.plaintext());
      ReEncrypted cipherd = a.engine.reEncrypt(m.ciphertext(), m.context(), "", expected);
      String ciphertext = cipherd.encrypted().ciphertext().toStringUtf8();
      assertThat(ciphertext).startsWith("<" + key + "/v4:gcm>");
      assertThat(cipherd.sourceVersion()).isEqualTo(m.version());
      assertThat(text(b.engine.decrypt(ciphertext, m.context()).plaintext()))
          .isEqualTo(m.plaintext());
    }
    Made first = made.get(0);
    assertThatThrownBy(
            () ->
                b.engine.decrypt(
                    first.ciphertext(),
                    ByteString.copyFromUtf8("user-2"),
                    ExpectedKey.parse("users", "expected_key")))
        .as("a swapped context")
        .hasMessage("decryption failed");
  }

  /** A ciphertext Transit made with a derived key under {@code context}. */
  private Made encryptDerived(String key, String plaintext, String context, int version)
      throws Exception {
    String body =
        "{\"plaintext\":\""
            + BASE64.encodeToString(plaintext.getBytes(StandardCharsets.UTF_8))
            + "\",\"context\":\""
            + BASE64.encodeToString(context.getBytes(StandardCharsets.UTF_8))
            + "\",\"key_version\":"
            + version
            + "}";
    String ciphertext =
        data(vault.callAsRoot("POST", "transit/encrypt/" + key, body)).get("ciphertext").asString();
    assertThat(ciphertext).startsWith("vault:v" + version + ":");
    return new Made(ciphertext, plaintext, ByteString.copyFromUtf8(context), version);
  }

  /** Exports derived {@code transitKey} and imports its versions in order, with Transit's KDF. */
  private void importDerived(String transitKey, CipherMode mode, int versions) throws Exception {
    String kdf =
        data(vault.callAsRoot("GET", "transit/keys/" + transitKey, null)).get("kdf").asString();
    JsonObject keys =
        data(vault.callAsRoot("GET", "transit/export/encryption-key/" + transitKey, null))
            .get("keys")
            .asObject();
    for (int version = 1; version <= versions; version++) {
      byte[] material = Base64.getDecoder().decode(keys.get(String.valueOf(version)).asString());
      KeyMetadata imported =
          a.keyRing.importVersion(
              transitKey, KeyTemplate.of(mode), material, TransitKdf.fromStoreName(kdf));
      assertThat(imported.version(version).transitKdf()).isEqualTo(TransitKdf.HKDF_SHA256);
    }
  }

  /** A ciphertext Transit made: what it holds, with what context, under which version. */
  private record Made(String ciphertext, String plaintext, ByteString context, int version) {}

  private Made encrypt(String key, String plaintext, String associated, int version)
      throws Exception {
    String body =
        "{\"plaintext\":\""
            + BASE64.encodeToString(plaintext.getBytes(StandardCharsets.UTF_8))
            + "\""
            + (associated.isEmpty()
                ? ""
                : ",\"associated_data\":\""
                    + BASE64.encodeToString(associated.getBytes(StandardCharsets.UTF_8))
                    + "\"")
            + "}";
    String ciphertext =
        data(vault.callAsRoot("POST", "transit/encrypt/" + key, body)).get("ciphertext").asString();
    assertThat(ciphertext).startsWith("vault:v" + version + ":");
    return new Made(ciphertext, plaintext, ByteString.copyFromUtf8(associated), version);
  }

  /** Exports {@code transitKey} and imports its versions in order into {@code into}. */
  private void importInto(String transitKey, String into, CipherMode mode, int versions)
      throws Exception {
    JsonObject keys =
        data(vault.callAsRoot("GET", "transit/export/encryption-key/" + transitKey, null))
            .get("keys")
            .asObject();
    for (int version = 1; version <= versions; version++) {
      byte[] material = Base64.getDecoder().decode(keys.get(String.valueOf(version)).asString());
      KeyMetadata imported = a.keyRing.importVersion(into, KeyTemplate.of(mode), material);
      assertThat(imported.currentVersion()).isEqualTo(version);
    }
  }

  private static JsonObject data(String body) {
    return Json.parse(body).asObject().get("data").asObject();
  }

  private static String text(byte[] plaintext) {
    return new String(plaintext, StandardCharsets.UTF_8);
  }
}

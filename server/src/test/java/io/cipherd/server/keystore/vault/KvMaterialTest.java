package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.KeyEncryptionKey;
import io.github.jopenlibs.vault.json.JsonObject;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * How key bytes sit in a KV secret's fields, raw or wrapped, with a KEK in memory (the real ones
 * run in KekMigrationVaultTest and Pkcs11KekTest): what is written, what is read back, and what is
 * refused.
 */
class KvMaterialTest {
  private static final byte[] KEY = new byte[32];
  private static final byte[] KEY_16 = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  private static final byte[] V1 = KvMaterial.versionData("payments", 1);
  private static final byte[] V2 = KvMaterial.versionData("payments", 2);

  private final KeyEncryptionKey kek = new InMemoryKek("memory:a");
  private final KvMaterial wrapping = new KvMaterial(kek, false);
  private final KvMaterial onlyWrapped = new KvMaterial(kek, true);

  @Test
  void withoutKek_materialIsBase64_andReadsBack() {
    JsonObject fields = KvMaterial.UNWRAPPED.put(new JsonObject(), KEY, V1);
    assertThat(fields.names()).containsExactly("material");
    assertThat(KvMaterial.UNWRAPPED.get("v1", fields, V1)).isEqualTo(KEY);
    assertThat(wrapping.get("v1", fields, V1)).as("raw is read during a migration").isEqualTo(KEY);
  }

  @Test
  void withKek_onlyTheWrappedBlobAndTheKeksIdAreWritten() {
    JsonObject fields = wrapping.put(new JsonObject(), KEY, V1);
    assertThat(fields.names()).containsExactly("material_wrapped", "kek");
    assertThat(fields.get("kek").asString()).isEqualTo("memory:a");
    assertThat(fields.toString()).doesNotContain(Base64.getEncoder().encodeToString(KEY));
    assertThat(onlyWrapped.get("v1", fields, V1)).isEqualTo(KEY);
  }

  @Test
  void wrappedBlob_readAsAnotherVersion_doesNotUnwrap() {
    JsonObject fields = wrapping.put(new JsonObject(), KEY, V1);
    assertThatThrownBy(() -> wrapping.get("key 'payments' version 2", fields, V2))
        .isInstanceOf(KekUnwrapException.class)
        .hasMessage(
            "key 'payments' version 2 in Vault did not unwrap with memory:a (changed, or moved from"
                + " elsewhere)");
  }

  @Test
  void requireWrapped_refusesRawMaterial_namingTheCommandThatWrapsIt() {
    JsonObject raw = KvMaterial.UNWRAPPED.put(new JsonObject(), KEY, V1);
    assertThatThrownBy(() -> onlyWrapped.get("key 'payments' version 1", raw, V1))
        .hasMessageContaining("stored unwrapped")
        .hasMessageContaining("cipherd kek migrate");
  }

  @Test
  void blobOfAnotherKek_orWithoutAKek_isRefusedByName() {
    JsonObject fields =
        new KvMaterial(new InMemoryKek("memory:b"), false).put(new JsonObject(), KEY, V1);
    assertThatThrownBy(() -> wrapping.get("v1", fields, V1))
        .isInstanceOf(KekUnwrapException.class)
        .hasMessage("v1 in Vault is wrapped by memory:b, not by this server's memory:a");
    assertThatThrownBy(() -> KvMaterial.UNWRAPPED.get("v1", fields, V1))
        .hasMessageContaining("this server has none (--kek)");
  }

  @Test
  void wrappedCopy_keepsEveryOtherField_andDropsTheRawOne() {
    JsonObject raw = KvMaterial.UNWRAPPED.put(new JsonObject().add("mode", "gcm"), KEY, V1);
    JsonObject copy = wrapping.wrapped(raw, KEY, V1);
    assertThat(copy.names()).containsExactly("mode", "material_wrapped", "kek");
    assertThat(wrapping.get("v1", copy, V1)).isEqualTo(KEY);
  }

  @Test
  void alsoUnwrapping_readsTheOtherKeksBlobs_andWritesWithItsOwn() {
    KeyEncryptionKey old = new InMemoryKek("memory:b");
    JsonObject fields = new KvMaterial(old, false).put(new JsonObject(), KEY_16, V1);
    KvMaterial moving = new KvMaterial(kek, List.of(old), false);
    assertThat(moving.get("v1", fields, V1)).isEqualTo(KEY_16);
    assertThat(moving.isCurrent(fields)).as("another KEK's blob is not current").isFalse();

    JsonObject rewrapped = moving.wrapped(fields, KEY_16, V1);
    assertThat(rewrapped.names()).containsExactly("material_wrapped", "kek");
    assertThat(rewrapped.get("kek").asString()).isEqualTo("memory:a");
    assertThat(moving.isCurrent(rewrapped)).isTrue();
    assertThat(wrapping.get("v1", rewrapped, V1)).isEqualTo(KEY_16);
    assertThatThrownBy(() -> wrapping.get("v1", fields, V1))
        .as("without --kek-also-unwrap the old KEK's blob is refused")
        .isInstanceOf(KekUnwrapException.class);
  }

  @Test
  void rawMaterial_refusedWhereOnlyWrappedIsTaken_isAnUnwrapFailure() {
    JsonObject raw = KvMaterial.UNWRAPPED.put(new JsonObject(), KEY, V1);
    assertThatThrownBy(() -> onlyWrapped.get("v1", raw, V1)).isInstanceOf(KekUnwrapException.class);
    assertThat(KvMaterial.wrappedBy(raw)).isEqualTo("none");
    assertThat(wrapping.isCurrent(raw)).isFalse();
  }

  /** AES-256-GCM under a fixed key, in memory: a stand-in with the contract's failure modes. */
  private record InMemoryKek(String id) implements KeyEncryptionKey {
    @Override
    public String wrap(byte[] material, byte[] associatedData) {
      try {
        byte[] iv = new byte[12];
        Cipher cipher = cipher(Cipher.ENCRYPT_MODE, iv);
        cipher.updateAAD(associatedData);
        byte[] sealed = cipher.doFinal(material);
        return Base64.getEncoder().encodeToString(sealed);
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public byte[] unwrap(String wrapped, byte[] associatedData) {
      try {
        Cipher cipher = cipher(Cipher.DECRYPT_MODE, new byte[12]);
        cipher.updateAAD(associatedData);
        return cipher.doFinal(Base64.getDecoder().decode(wrapped));
      } catch (AEADBadTagException e) {
        throw new KekUnwrapException("did not unwrap");
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    private Cipher cipher(int mode, byte[] iv) throws GeneralSecurityException {
      Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
      // A key per id, so two KEKs' blobs do not unwrap with each other.
      byte[] key = new byte[32];
      key[0] = (byte) id.hashCode();
      cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
      return cipher;
    }
  }
}

package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.Key;
import io.cipherd.api.v1.KeyAdminServiceGrpc;
import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import java.nio.charset.StandardCharsets;

/** Legacy imports and items as the API takes them, for the legacy tests. */
final class LegacyKeys {
  /** MySQL's {@code HEX(AES_ENCRYPT('HELLO', '1234567890'))} in its default aes-128-ecb mode. */
  static final String MYSQL_HELLO_HEX = "FF06A56B4E88C828A010E9BD0CE70A89";

  static final ByteString MYSQL_PASSPHRASE =
      ByteString.copyFrom("1234567890", StandardCharsets.US_ASCII);

  private LegacyKeys() {}

  /** Imports a MySQL key by its key string into {@code name}. */
  static Key importMysql(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin, String name, ByteString passphrase) {
    return admin
        .importKey(
            ImportKeyRequest.newBuilder()
                .setKeyName(name)
                .setLegacyCipher(LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB)
                .setPassphrase(passphrase)
                .build())
        .getKey();
  }

  /**
   * Imports raw key bytes for {@code cipher}, its IV where {@code iv} says ({@code fixedIv} for a
   * fixed one).
   */
  static Key importKey(
      KeyAdminServiceGrpc.KeyAdminServiceBlockingStub admin,
      String name,
      LegacyCipher cipher,
      LegacyIv iv,
      byte[] fixedIv,
      byte[] key) {
    return admin
        .importKey(
            ImportKeyRequest.newBuilder()
                .setKeyName(name)
                .setLegacyCipher(cipher)
                .setLegacyIv(iv)
                .setLegacyFixedIv(ByteString.copyFrom(fixedIv))
                .setKeyMaterial(ByteString.copyFrom(key))
                .build())
        .getKey();
  }

  /** A legacy item of {@code key}'s newest version, as hex text. */
  static LegacyCiphertext hex(String key, String hex) {
    return LegacyCiphertext.newBuilder().setKeyName(key).setHex(hex).build();
  }

  /** A legacy item of {@code key}'s newest version, as raw bytes with its own IV (empty: none). */
  static LegacyCiphertext raw(String key, byte[] data, byte[] iv) {
    return LegacyCiphertext.newBuilder()
        .setKeyName(key)
        .setRaw(ByteString.copyFrom(data))
        .setIv(ByteString.copyFrom(iv))
        .build();
  }
}

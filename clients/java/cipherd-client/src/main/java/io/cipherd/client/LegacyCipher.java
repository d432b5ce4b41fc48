package io.cipherd.client;

/**
 * How data encrypted before cipherd was encrypted (proto/README.md, "Legacy ciphertexts"). A key
 * imported with one is decrypt-only; reEncrypt rewraps its data into a cipherd key.
 */
public enum LegacyCipher {
  /** MySQL/MariaDB AES_ENCRYPT(str, key_str) in its default aes-128-ecb. */
  MYSQL_AES_ECB,
  AES_CBC,
  AES_ECB,
  AES_CTR,
  AES_CFB,
  AES_OFB,
  AES_GCM,
  DES_CBC,
  DESEDE_CBC,
  BLOWFISH_CBC,
  RC4;

  io.cipherd.api.v1.LegacyCipher toProto() {
    return io.cipherd.api.v1.LegacyCipher.valueOf("LEGACY_CIPHER_" + name());
  }

  /** The cipher of a legacy version; null for a cipherd version or one newer than this client. */
  static LegacyCipher fromProto(io.cipherd.api.v1.LegacyCipher cipher) {
    return switch (cipher) {
      case LEGACY_CIPHER_UNSPECIFIED, UNRECOGNIZED -> null;
      default -> valueOf(cipher.name().substring("LEGACY_CIPHER_".length()));
    };
  }
}

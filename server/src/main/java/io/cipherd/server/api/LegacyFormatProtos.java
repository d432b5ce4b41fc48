package io.cipherd.server.api;

import io.cipherd.api.v1.LegacyCipher;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.server.crypto.legacy.LegacyFormat;

/**
 * Converts a legacy version's {@link LegacyFormat} to the API's enums, for key metadata; {@link
 * LegacyProtos} converts requests the other way.
 */
final class LegacyFormatProtos {
  private LegacyFormatProtos() {}

  static LegacyCipher cipher(LegacyFormat format) {
    return switch (format.cipher()) {
      case MYSQL_AES_ECB -> LegacyCipher.LEGACY_CIPHER_MYSQL_AES_ECB;
      case AES_CBC -> LegacyCipher.LEGACY_CIPHER_AES_CBC;
      case AES_ECB -> LegacyCipher.LEGACY_CIPHER_AES_ECB;
      case AES_CTR -> LegacyCipher.LEGACY_CIPHER_AES_CTR;
      case AES_CFB -> LegacyCipher.LEGACY_CIPHER_AES_CFB;
      case AES_OFB -> LegacyCipher.LEGACY_CIPHER_AES_OFB;
      case AES_GCM -> LegacyCipher.LEGACY_CIPHER_AES_GCM;
      case DES_CBC -> LegacyCipher.LEGACY_CIPHER_DES_CBC;
      case DESEDE_CBC -> LegacyCipher.LEGACY_CIPHER_DESEDE_CBC;
      case BLOWFISH_CBC -> LegacyCipher.LEGACY_CIPHER_BLOWFISH_CBC;
      case RC4 -> LegacyCipher.LEGACY_CIPHER_RC4;
    };
  }

  /** NONE (a cipher without IV) is LEGACY_IV_UNSPECIFIED. */
  static LegacyIv iv(LegacyFormat format) {
    return switch (format.iv()) {
      case NONE -> LegacyIv.LEGACY_IV_UNSPECIFIED;
      case PREPENDED -> LegacyIv.LEGACY_IV_PREPENDED;
      case SEPARATE -> LegacyIv.LEGACY_IV_SEPARATE;
      case FIXED -> LegacyIv.LEGACY_IV_FIXED;
    };
  }
}

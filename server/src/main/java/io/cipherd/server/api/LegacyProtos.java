package io.cipherd.server.api;

import com.google.protobuf.ByteString;
import io.cipherd.api.v1.ImportKeyRequest;
import io.cipherd.api.v1.KeyVersion;
import io.cipherd.api.v1.LegacyCiphertext;
import io.cipherd.api.v1.LegacyIv;
import io.cipherd.api.v1.Mode;
import io.cipherd.server.crypto.legacy.IvConvention;
import io.cipherd.server.crypto.legacy.LegacyCipher;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.legacy.LegacyText;
import io.cipherd.server.engine.LegacyItem;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * Converts the API's legacy-ciphertext messages and enums to the domain's, checking the request
 * around them; {@link LegacyFormatProtos} converts back.
 */
final class LegacyProtos {
  private LegacyProtos() {}

  /** The legacy format an ImportKey with legacy_cipher asks for; mode must then be unspecified. */
  static LegacyFormat format(ImportKeyRequest request) {
    if (request.getMode() != Mode.MODE_UNSPECIFIED) {
      throw new InvalidArgumentException(
          "mode must be MODE_UNSPECIFIED with legacy_cipher: a legacy version "
              + "has no cipherd mode, and it only decrypts");
    }
    if (request.hasFpeFormat()) {
      throw new InvalidArgumentException(
          "fpe_format is for format-preserving keys (MODE_FF1), not legacy ones");
    }
    return LegacyFormat.of(cipher(request), iv(request), request.getLegacyFixedIv().toByteArray());
  }

  /**
   * The legacy format a backed-up version describes, with its fixed IV (empty if none): read as the
   * ImportKey that made the version, so both are checked alike.
   */
  static LegacyFormat format(KeyVersion version, ByteString fixedIv) {
    return format(
        ImportKeyRequest.newBuilder()
            .setLegacyCipher(version.getLegacyCipher())
            .setLegacyIv(version.getLegacyIv())
            .setLegacyFixedIv(fixedIv)
            .build());
  }

  /** Refuses the legacy fields of an ImportKey without legacy_cipher, rather than ignoring them. */
  static void checkNoLegacyFields(ImportKeyRequest request) {
    if (request.getLegacyIv() != LegacyIv.LEGACY_IV_UNSPECIFIED
        || !request.getLegacyFixedIv().isEmpty()
        || !request.getPassphrase().isEmpty()) {
      throw new InvalidArgumentException(
          "legacy_iv, legacy_fixed_iv and passphrase are for legacy keys: "
              + "set legacy_cipher too, or leave them out");
    }
  }

  /**
   * The domain item of a rewrap request's {@code legacy}, after checking that the request does not
   * also carry a {@code ciphertext} and names the key to rewrap into ({@code targetField} names
   * where: {@code key_name}, or the batch's).
   */
  static LegacyItem rewrapItem(
      LegacyCiphertext legacy, String ciphertext, String targetKey, String targetField) {
    if (!ciphertext.isEmpty()) {
      throw new InvalidArgumentException("set ciphertext or legacy, not both");
    }
    if (targetKey.isEmpty()) {
      throw new InvalidArgumentException(
          targetField
              + " is required with legacy: the key to rewrap the legacy "
              + "ciphertext into");
    }
    return item(legacy);
  }

  /** The domain item of {@code legacy}, its data decoded from raw bytes, hex or base64. */
  static LegacyItem item(LegacyCiphertext legacy) {
    byte[] data =
        switch (legacy.getDataCase()) {
          case RAW -> legacy.getRaw().toByteArray();
          case HEX -> LegacyText.fromHex(legacy.getHex(), "legacy.hex");
          case BASE64 -> LegacyText.fromBase64(legacy.getBase64(), "legacy.base64");
          case DATA_NOT_SET ->
              throw new InvalidArgumentException(
                  "legacy needs its ciphertext in raw, hex or base64");
        };
    return new LegacyItem(
        legacy.getKeyName(), legacy.getKeyVersion(), data, legacy.getIv().toByteArray());
  }

  private static LegacyCipher cipher(ImportKeyRequest request) {
    return switch (request.getLegacyCipher()) {
      case LEGACY_CIPHER_MYSQL_AES_ECB -> LegacyCipher.MYSQL_AES_ECB;
      case LEGACY_CIPHER_AES_CBC -> LegacyCipher.AES_CBC;
      case LEGACY_CIPHER_AES_ECB -> LegacyCipher.AES_ECB;
      case LEGACY_CIPHER_AES_CTR -> LegacyCipher.AES_CTR;
      case LEGACY_CIPHER_AES_CFB -> LegacyCipher.AES_CFB;
      case LEGACY_CIPHER_AES_OFB -> LegacyCipher.AES_OFB;
      case LEGACY_CIPHER_AES_GCM -> LegacyCipher.AES_GCM;
      case LEGACY_CIPHER_DES_CBC -> LegacyCipher.DES_CBC;
      case LEGACY_CIPHER_DESEDE_CBC -> LegacyCipher.DESEDE_CBC;
      case LEGACY_CIPHER_BLOWFISH_CBC -> LegacyCipher.BLOWFISH_CBC;
      case LEGACY_CIPHER_RC4 -> LegacyCipher.RC4;
      case LEGACY_CIPHER_UNSPECIFIED, UNRECOGNIZED ->
          throw new InvalidArgumentException(
              "legacy_cipher is not a known cipherd.v1.LegacyCipher value");
    };
  }

  /** The convention asked for, or null for LEGACY_IV_UNSPECIFIED (the cipher's default). */
  private static IvConvention iv(ImportKeyRequest request) {
    return switch (request.getLegacyIv()) {
      case LEGACY_IV_UNSPECIFIED -> null;
      case LEGACY_IV_PREPENDED -> IvConvention.PREPENDED;
      case LEGACY_IV_SEPARATE -> IvConvention.SEPARATE;
      case LEGACY_IV_FIXED -> IvConvention.FIXED;
      case UNRECOGNIZED ->
          throw new InvalidArgumentException("legacy_iv is not a known cipherd.v1.LegacyIv value");
    };
  }
}

package io.cipherd.server.crypto.legacy;

import io.cipherd.server.errors.InvalidArgumentException;

/** The key bytes of a legacy import: given as they are, or folded from a MySQL key string. */
public final class LegacyKeyMaterial {
  private LegacyKeyMaterial() {}

  /**
   * The raw key for {@code cipher} from exactly one of {@code keyMaterial} (checked against the
   * cipher's key lengths) and {@code passphrase} (MySQL's key string, folded by {@link
   * MysqlKeyFold}); an empty array counts as absent. Returns a new array the caller wipes, as it
   * does its own two.
   */
  public static byte[] of(LegacyCipher cipher, byte[] keyMaterial, byte[] passphrase) {
    boolean hasMaterial = keyMaterial.length > 0;
    boolean hasPassphrase = passphrase.length > 0;
    if (hasMaterial && hasPassphrase) {
      throw new InvalidArgumentException("set key_material or passphrase, not both");
    }
    if (hasPassphrase) {
      if (cipher != LegacyCipher.MYSQL_AES_ECB) {
        throw new InvalidArgumentException(
            "passphrase is only for "
                + LegacyCipher.MYSQL_AES_ECB.storeName()
                + " (MySQL's AES_ENCRYPT key string); "
                + cipher.storeName()
                + " needs key_material");
      }
      return MysqlKeyFold.fold(passphrase);
    }
    if (!hasMaterial) {
      throw new InvalidArgumentException(
          "key_material is required for "
              + cipher.storeName()
              + (cipher == LegacyCipher.MYSQL_AES_ECB
                  ? " (or passphrase, MySQL's key string)"
                  : ""));
    }
    if (!cipher.acceptsKeyLength(keyMaterial.length)) {
      throw new InvalidArgumentException(
          "key_material for "
              + cipher.storeName()
              + " must be "
              + cipher.keyLengths()
              + ", got "
              + keyMaterial.length);
    }
    return keyMaterial.clone();
  }
}

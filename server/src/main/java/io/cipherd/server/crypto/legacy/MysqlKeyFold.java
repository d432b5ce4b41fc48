package io.cipherd.server.crypto.legacy;

/**
 * The AES key MySQL and MariaDB derive from {@code AES_ENCRYPT}'s key string in their default
 * {@code block_encryption_mode} (aes-128-ecb): 16 zero bytes, with every byte of the string XORed
 * in turn into position {@code i mod 16}. A string of 16 bytes or fewer is thus its own key,
 * zero-padded.
 */
public final class MysqlKeyFold {
  /** AES-128. */
  public static final int KEY_BYTES = 16;

  private MysqlKeyFold() {}

  /** The key of {@code passphrase}; the caller wipes both arrays when done. */
  public static byte[] fold(byte[] passphrase) {
    byte[] key = new byte[KEY_BYTES];
    for (int i = 0; i < passphrase.length; i++) {
      key[i % KEY_BYTES] ^= passphrase[i];
    }
    return key;
  }
}

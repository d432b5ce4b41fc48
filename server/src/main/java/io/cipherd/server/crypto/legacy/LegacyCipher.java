package io.cipherd.server.crypto.legacy;

import java.util.Arrays;

/**
 * How data was encrypted before cipherd, with no header to say so: the cipher, its key sizes, its
 * IV length and padding. proto/README.md ("Legacy ciphertexts") is the spec; these only ever
 * decrypt.
 */
public enum LegacyCipher {
  /**
   * MySQL/MariaDB {@code AES_ENCRYPT(str, key_str)} by default: AES-128-ECB, the key folded from
   * the key string.
   */
  MYSQL_AES_ECB("mysql-aes-ecb", "AES/ECB/PKCS5Padding", "AES", 0, 0, only(16)),
  AES_CBC("aes-cbc", "AES/CBC/PKCS5Padding", "AES", 16, 0, only(16, 24, 32)),
  AES_ECB("aes-ecb", "AES/ECB/PKCS5Padding", "AES", 0, 0, only(16, 24, 32)),
  /**
   * The IV is the whole initial counter block, incremented as one 128-bit big-endian number (as
   * OpenSSL).
   */
  AES_CTR("aes-ctr", "AES/CTR/NoPadding", "AES", 16, 0, only(16, 24, 32)),
  /** CFB with 128-bit feedback (OpenSSL's aes-N-cfb, not cfb8 or cfb1). */
  AES_CFB("aes-cfb", "AES/CFB/NoPadding", "AES", 16, 0, only(16, 24, 32)),
  AES_OFB("aes-ofb", "AES/OFB/NoPadding", "AES", 16, 0, only(16, 24, 32)),
  /** A 12-byte nonce, the 16-byte tag after the ciphertext, no associated data. */
  AES_GCM("aes-gcm", "AES/GCM/NoPadding", "AES", 12, 16, only(16, 24, 32)),
  DES_CBC("des-cbc", "DES/CBC/PKCS5Padding", "DES", 8, 0, only(8)),
  /** Three-key (24 bytes) or two-key (16 bytes, stored as K1 ‖ K2 ‖ K1) 3DES-EDE. */
  DESEDE_CBC("desede-cbc", "DESede/CBC/PKCS5Padding", "DESede", 8, 0, only(16, 24)),
  /** Any key length from 4 to 56 bytes. */
  BLOWFISH_CBC("blowfish-cbc", "Blowfish/CBC/PKCS5Padding", "Blowfish", 8, 0, between(4, 56)),
  /**
   * Any key length from 5 to 256 bytes; decrypted by {@link Rc4}, since the JDK's ARCFOUR stops at
   * 128.
   */
  RC4("rc4", "RC4", "ARCFOUR", 0, 0, between(5, 256));

  private final String storeName;
  private final String transformation;
  private final String keyAlgorithm;
  private final int ivLength;
  private final int tagLength;
  private final KeyLengths keyLengths;

  LegacyCipher(
      String storeName,
      String transformation,
      String keyAlgorithm,
      int ivLength,
      int tagLength,
      KeyLengths keyLengths) {
    this.storeName = storeName;
    this.transformation = transformation;
    this.keyAlgorithm = keyAlgorithm;
    this.ivLength = ivLength;
    this.tagLength = tagLength;
    this.keyLengths = keyLengths;
  }

  /** The name key stores record, e.g. {@code aes-cbc}. */
  public String storeName() {
    return storeName;
  }

  /** The JCE transformation that decrypts it ({@code RC4} is this package's own {@link Rc4}). */
  public String transformation() {
    return transformation;
  }

  /** The JCE key algorithm of its keys. */
  public String keyAlgorithm() {
    return keyAlgorithm;
  }

  /** Bytes of IV or nonce; 0 for ciphers without one (ECB, RC4). */
  public int ivLength() {
    return ivLength;
  }

  /** Whether a ciphertext needs an IV to decrypt. */
  public boolean takesIv() {
    return ivLength > 0;
  }

  /** Bytes of authentication tag after the ciphertext: 16 for GCM, else 0. */
  public int tagLength() {
    return tagLength;
  }

  /**
   * Whether the plaintext was PKCS#7-padded to whole blocks, so a ciphertext holds one block at
   * least.
   */
  public boolean isPadded() {
    return transformation.endsWith("PKCS5Padding");
  }

  /** Whether keys of {@code length} bytes are this cipher's. */
  public boolean acceptsKeyLength(int length) {
    return keyLengths.only() == null
        ? length >= keyLengths.min() && length <= keyLengths.max()
        : Arrays.stream(keyLengths.only()).anyMatch(size -> size == length);
  }

  /** The key lengths it takes, for messages: "16, 24 or 32 bytes", "4 to 56 bytes". */
  public String keyLengths() {
    int[] only = keyLengths.only();
    if (only == null) {
      return keyLengths.min() + " to " + keyLengths.max() + " bytes";
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < only.length; i++) {
      text.append(i == 0 ? "" : i == only.length - 1 ? " or " : ", ").append(only[i]);
    }
    return text.append(" bytes").toString();
  }

  /**
   * The bytes stored for an imported key of this cipher: a copy of {@code material}, except that a
   * two-key 3DES key K1 ‖ K2 becomes the three-key form K1 ‖ K2 ‖ K1 it stands for, which the JCE
   * takes. The caller wipes both arrays.
   */
  public byte[] storedKey(byte[] material) {
    if (this == DESEDE_CBC && material.length == 16) {
      byte[] expanded = Arrays.copyOf(material, 24);
      System.arraycopy(material, 0, expanded, 16, 8);
      return expanded;
    }
    return material.clone();
  }

  /** Key lengths in bytes: any from {@code min} to {@code max}, or only those listed. */
  private record KeyLengths(int min, int max, int[] only) {}

  private static KeyLengths only(int... lengths) {
    return new KeyLengths(lengths[0], lengths[lengths.length - 1], lengths);
  }

  private static KeyLengths between(int min, int max) {
    return new KeyLengths(min, max, null);
  }

  /** The cipher a key store recorded as {@code name}, or null if there is none. */
  public static LegacyCipher fromStoreName(String name) {
    for (LegacyCipher cipher : values()) {
      if (cipher.storeName.equals(name)) {
        return cipher;
      }
    }
    return null;
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.InvalidArgumentException;

/**
 * What a key allows. Versions below the minimums are kept, never deleted; they only refuse to work.
 *
 * @param minDecryptionVersion oldest version that may decrypt; 0 or 1 means all
 * @param minEncryptionVersion oldest version a caller may choose to encrypt with; 0 or 1 means all
 * @param allowEcbEncryption whether versions in ECB mode may encrypt new data
 */
public record KeyPolicy(int minDecryptionVersion, int minEncryptionVersion, boolean allowEcbEncryption) {
  public static final KeyPolicy DEFAULT = new KeyPolicy(0, 0, false);

  public KeyPolicy {
    if (minDecryptionVersion < 0) {
      throw new InvalidArgumentException("min_decryption_version must not be negative");
    }
    if (minEncryptionVersion < 0) {
      throw new InvalidArgumentException("min_encryption_version must not be negative");
    }
  }

  /** Whether {@code version} may decrypt under this policy. */
  public boolean allowsDecryption(int version) {
    return version >= minDecryptionVersion;
  }

  /** Whether a caller may choose {@code version} to encrypt new data. */
  public boolean allowsEncryption(int version) {
    return version >= minEncryptionVersion && version >= minDecryptionVersion;
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.crypto.Mode;
import io.cipherd.server.errors.InvalidArgumentException;

/**
 * What a key allows, and the one place its rules are checked. Versions below the minimums are kept,
 * never deleted; they only refuse to work.
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

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may
   * encrypt: a version the caller chose must be at or above both minimums (the current one always
   * is, by {@link #checkFits}), and an ECB version needs {@code allow_ecb_encryption}.
   */
  void checkEncryption(String name, KeyVersionInfo version, boolean chosenByCaller) {
    if (version.isLegacy()) {
      // Whatever the policy says: a legacy cipher's ciphertexts carry no header and are mostly unauthenticated.
      throw new KeyPolicyViolationException("key '" + name + "' is a legacy key: it only decrypts data made "
          + "before cipherd, for ReEncrypt into another key, and never encrypts");
    }
    if (!version.mode().isCipher()) {
      throw new KeyPolicyViolationException("key '" + name + "' is an index key (hmac): it computes blind "
          + "indexes with ComputeIndex and never encrypts");
    }
    if (chosenByCaller && !allowsEncryption(version.version())) {
      throw new KeyPolicyViolationException("version " + version.version() + " of key '" + name
          + "' is below its min_encryption_version or min_decryption_version");
    }
    if (version.mode() == Mode.ECB && !allowEcbEncryption) {
      throw new KeyPolicyViolationException("key '" + name + "' version " + version.version()
          + " is ecb, which may only decrypt unless the key's policy sets allow_ecb_encryption");
    }
  }

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may compute
   * blind indexes: it must be an index key's version, at or above min_decryption_version (the
   * version that queries old rows).
   */
  void checkIndexing(String name, KeyVersionInfo version) {
    if (version.mode().kind() != Mode.Kind.INDEX) {
      throw new KeyPolicyViolationException("key '" + name + "' version " + version.version() + " is "
          + version.mode().headerName() + "; ComputeIndex needs an index key (mode hmac)");
    }
    checkDecryption(name, version.version());
  }

  /** The versions that may still compute or decrypt, newest first: the current one down to min_decryption_version. */
  java.util.List<Integer> usableVersions(int currentVersion) {
    java.util.List<Integer> versions = new java.util.ArrayList<>();
    for (int v = currentVersion; v >= Math.max(1, minDecryptionVersion); v--) {
      versions.add(v);
    }
    return versions;
  }

  /** Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may decrypt. */
  void checkDecryption(String name, int version) {
    if (!allowsDecryption(version)) {
      throw new KeyPolicyViolationException("version " + version + " of key '" + name
          + "' is below its min_decryption_version " + minDecryptionVersion);
    }
  }

  /** Throws {@link KeyPolicyViolationException} if a minimum names a version the key does not have yet. */
  void checkFits(int currentVersion) {
    if (minDecryptionVersion > currentVersion) {
      throw new KeyPolicyViolationException("min_decryption_version " + minDecryptionVersion
          + " is above the current version " + currentVersion);
    }
    if (minEncryptionVersion > currentVersion) {
      throw new KeyPolicyViolationException("min_encryption_version " + minEncryptionVersion
          + " is above the current version " + currentVersion);
    }
  }
}

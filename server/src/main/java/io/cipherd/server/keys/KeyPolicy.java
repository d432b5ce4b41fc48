package io.cipherd.server.keys;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyKind;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a key allows, and the one place its rules are checked. Versions below the minimums are kept,
 * never deleted; they only refuse to work.
 *
 * @param minDecryptionVersion oldest version that may decrypt; 0 or 1 means all
 * @param minEncryptionVersion oldest version a caller may choose to encrypt with; 0 or 1 means all
 * @param allowEcbEncryption whether versions in ECB mode may encrypt new data
 * @param autoRotatePeriod the age at which the current version is replaced by itself; zero: never
 * @param maxEncryptionsPerVersion the encryptions after which the current version is replaced, and
 *     past which no version encrypts; 0 means the mode's default ({@link #encryptionLimit})
 * @param cancelDestructionOnUse whether a call naming a version pending destruction cancels that
 *     destruction (the call itself is still refused): data under the version still exists
 */
public record KeyPolicy(
    int minDecryptionVersion,
    int minEncryptionVersion,
    boolean allowEcbEncryption,
    Duration autoRotatePeriod,
    long maxEncryptionsPerVersion,
    boolean cancelDestructionOnUse) {
  /** Shorter periods would rotate faster than replicas see each other's rotations. */
  public static final Duration MIN_AUTO_ROTATE_PERIOD = Duration.ofMinutes(1);

  /**
   * Longer ones mean never; and a version's creation time plus a period of Long.MAX_VALUE seconds
   * overflows.
   */
  public static final Duration MAX_AUTO_ROTATE_PERIOD = Duration.ofDays(3650);

  /** After the constants its constructor checks against, which must be set first. */
  public static final KeyPolicy DEFAULT = new KeyPolicy(0, 0, /* allowEcbEncryption= */ false);

  public KeyPolicy {
    if (minDecryptionVersion < 0) {
      throw new InvalidArgumentException("min_decryption_version must not be negative");
    }
    if (minEncryptionVersion < 0) {
      throw new InvalidArgumentException("min_encryption_version must not be negative");
    }
    autoRotatePeriod = autoRotatePeriod == null ? Duration.ZERO : autoRotatePeriod;
    if (autoRotatePeriod.isNegative()
        || (!autoRotatePeriod.isZero() && autoRotatePeriod.compareTo(MIN_AUTO_ROTATE_PERIOD) < 0)
        || autoRotatePeriod.compareTo(MAX_AUTO_ROTATE_PERIOD) > 0) {
      throw new InvalidArgumentException(
          "auto_rotate_period must be 0 (never) or from "
              + MIN_AUTO_ROTATE_PERIOD.toSeconds()
              + " seconds to "
              + MAX_AUTO_ROTATE_PERIOD.toDays()
              + " days");
    }
    if (maxEncryptionsPerVersion < 0) {
      throw new InvalidArgumentException("max_encryptions_per_version must not be negative");
    }
  }

  /** A policy that leaves destructions pending when their versions are used. */
  public KeyPolicy(
      int minDecryptionVersion,
      int minEncryptionVersion,
      boolean allowEcbEncryption,
      Duration autoRotatePeriod,
      long maxEncryptionsPerVersion) {
    this(
        minDecryptionVersion,
        minEncryptionVersion,
        allowEcbEncryption,
        autoRotatePeriod,
        maxEncryptionsPerVersion,
        /* cancelDestructionOnUse= */ false);
  }

  /** This policy with min_decryption_version raised to {@code version} (never lowered). */
  public KeyPolicy withMinDecryptionVersionAtLeast(int version) {
    return new KeyPolicy(
        Math.max(minDecryptionVersion, version),
        minEncryptionVersion,
        allowEcbEncryption,
        autoRotatePeriod,
        maxEncryptionsPerVersion,
        cancelDestructionOnUse);
  }

  /** A policy without automatic rotation settings (the mode's default limit applies). */
  public KeyPolicy(int minDecryptionVersion, int minEncryptionVersion, boolean allowEcbEncryption) {
    this(minDecryptionVersion, minEncryptionVersion, allowEcbEncryption, Duration.ZERO, 0);
  }

  /**
   * How many encryptions a version in {@code mode} may make before the key rotates by itself:
   * max_encryptions_per_version if set, else the mode's own limit ({@link
   * CipherMode#encryptionLimit}: 2³⁰ for random 96-bit nonces, gcm and chacha), else no limit (0);
   * {@code mode} is null for a format-preserving version.
   */
  public long encryptionLimit(CipherMode mode) {
    if (maxEncryptionsPerVersion > 0) {
      return maxEncryptionsPerVersion;
    }
    // A format-preserving version (no cipher mode) uses no nonce: no limit of its own.
    return mode == null ? 0 : mode.encryptionLimit();
  }

  /**
   * Why the key whose newest version is {@code current}, having made {@code encryptions}
   * encryptions, must rotate now; null if it need not.
   */
  public String rotationReason(KeyVersionInfo current, long encryptions, Instant now) {
    if (current.kind() != KeyKind.ENCRYPTION && current.kind() != KeyKind.FORMAT_PRESERVING) {
      return null;
    }
    long limit = encryptionLimit(current.mode());
    if (limit > 0 && encryptions >= limit) {
      return "version "
          + current.version()
          + " made "
          + encryptions
          + " encryptions, limit "
          + limit;
    }
    if (!autoRotatePeriod.isZero() && !current.createdAt().plus(autoRotatePeriod).isAfter(now)) {
      return "version "
          + current.version()
          + " is older than auto_rotate_period "
          + autoRotatePeriod;
    }
    return null;
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
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name}, having
   * made {@code encryptions} encryptions as far as this replica knows, may encrypt: a version the
   * caller chose must be at or above both minimums (the current one always is, by {@link
   * #checkFits}), an ECB version needs {@code allow_ecb_encryption}, and no version may pass its
   * {@link #encryptionLimit}.
   */
  public void checkEncryption(
      String name, KeyVersionInfo version, boolean chosenByCaller, long encryptions) {
    if (version.isLegacy()) {
      // Whatever the policy says: a legacy cipher's ciphertexts carry no header and are mostly
      // unauthenticated.
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' is a legacy key: it only decrypts data made "
              + "before cipherd, for ReEncrypt into another key, and never encrypts");
    }
    if (version.kind() == KeyKind.FORMAT_PRESERVING) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' is a format-preserving key (ff1): it encrypts values that keep their shape "
              + "with EncryptFormatted, and makes no ciphertexts");
    }
    if (version.kind() != KeyKind.ENCRYPTION) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' is an index key (hmac): it computes blind "
              + "indexes with ComputeIndex and never encrypts");
    }
    if (version.isTransitDerived()) {
      // Its bytes are a derived Transit key's master, which Transit never seals with either.
      throw new KeyPolicyViolationException(
          "version "
              + version.version()
              + " of key '"
              + name
              + "' was imported from a derived Vault Transit key: it only decrypts Transit's"
              + " vault:vN: ciphertexts and never encrypts; rotate the key for a version that"
              + " encrypts (cipherctl import vault-transit does)");
    }
    checkEncryptionVersion(name, version, chosenByCaller, encryptions);
  }

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name}, having
   * made {@code encryptions} encryptions, may encrypt formatted values: it must be a
   * format-preserving key's version, under the same minimums and limit as {@link #checkEncryption}.
   */
  public void checkFormattedEncryption(
      String name, KeyVersionInfo version, boolean chosenByCaller, long encryptions) {
    checkFormatPreserving(name, version);
    checkEncryptionVersion(name, version, chosenByCaller, encryptions);
  }

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may
   * decrypt formatted values: a format-preserving key's version at or above min_decryption_version.
   */
  public void checkFormattedDecryption(String name, KeyVersionInfo version) {
    checkFormatPreserving(name, version);
    checkDecryption(name, version.version());
  }

  private static void checkFormatPreserving(String name, KeyVersionInfo version) {
    if (version.kind() != KeyKind.FORMAT_PRESERVING) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' is "
              + version.kind().description()
              + " ("
              + version.type().typeName()
              + "); the FormatPreservingService needs a format-preserving key (mode ff1)");
    }
  }

  private void checkEncryptionVersion(
      String name, KeyVersionInfo version, boolean chosenByCaller, long encryptions) {
    if (chosenByCaller && !allowsEncryption(version.version())) {
      throw new KeyPolicyViolationException(
          "version "
              + version.version()
              + " of key '"
              + name
              + "' is below its min_encryption_version or min_decryption_version");
    }
    if (version.mode() == CipherMode.ECB && !allowEcbEncryption) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' version "
              + version.version()
              + " is ecb, which may only decrypt unless the key's policy sets allow_ecb_encryption");
    }
    checkEncryptionLimit(name, version, encryptions);
  }

  /**
   * The limit is a cap, not only a rotation trigger: a caller pinning key_version could otherwise
   * go on encrypting with an old version, and the current version must stop too if it reaches the
   * limit and cannot be replaced, since past 2³⁰ random 96-bit nonces may repeat.
   */
  private void checkEncryptionLimit(String name, KeyVersionInfo version, long encryptions) {
    long limit = encryptionLimit(version.mode());
    if (limit > 0 && encryptions >= limit) {
      throw encryptionLimitReached(name, version);
    }
  }

  /**
   * The refusal of an encryption with {@code version} of key {@code name} once it has made its
   * {@link #encryptionLimit}.
   */
  public KeyPolicyViolationException encryptionLimitReached(String name, KeyVersionInfo version) {
    long limit = encryptionLimit(version.mode());
    String why =
        maxEncryptionsPerVersion > 0
            ? "max_encryptions_per_version"
            : "the bound for "
                + version.mode().headerName()
                + "'s random 96-bit nonces, past which they may repeat";
    return new KeyPolicyViolationException(
        "version "
            + version.version()
            + " of key '"
            + name
            + "' has reached its limit of "
            + limit
            + " encryptions ("
            + why
            + ") and may no longer encrypt: encrypt with the key's current version (the key rotates "
            + "by itself when its current version reaches the limit), or rotate the key");
  }

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may
   * compute blind indexes: it must be an index key's version, at or above min_decryption_version
   * (the version that queries old rows).
   */
  public void checkIndexing(String name, KeyVersionInfo version) {
    if (version.kind() != KeyKind.INDEX) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' version "
              + version.version()
              + " is "
              + version.type().typeName()
              + "; ComputeIndex needs an index key (mode hmac)");
    }
    checkDecryption(name, version.version());
  }

  /**
   * The versions that may still compute or decrypt, newest first: the current one down to
   * min_decryption_version.
   */
  public List<Integer> usableVersions(int currentVersion) {
    List<Integer> versions = new ArrayList<>();
    for (int v = currentVersion; v >= Math.max(1, minDecryptionVersion); v--) {
      versions.add(v);
    }
    return versions;
  }

  /**
   * Throws {@link KeyPolicyViolationException} unless {@code version} of key {@code name} may
   * decrypt.
   */
  public void checkDecryption(String name, int version) {
    if (!allowsDecryption(version)) {
      throw new KeyPolicyViolationException(
          "version "
              + version
              + " of key '"
              + name
              + "' is below its min_decryption_version "
              + minDecryptionVersion);
    }
  }

  /**
   * Throws {@link KeyPolicyViolationException} if a minimum names a version the key does not have
   * yet.
   */
  public void checkFits(int currentVersion) {
    if (minDecryptionVersion > currentVersion) {
      throw new KeyPolicyViolationException(
          "min_decryption_version "
              + minDecryptionVersion
              + " is above the current version "
              + currentVersion);
    }
    if (minEncryptionVersion > currentVersion) {
      throw new KeyPolicyViolationException(
          "min_encryption_version "
              + minEncryptionVersion
              + " is above the current version "
              + currentVersion);
    }
  }
}

package io.cipherd.server.lifecycle;

import io.cipherd.server.crypto.KeyKind;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import java.time.Clock;
import java.util.Arrays;

/**
 * Makes the versions {@link KeyAdmin} adds and checks them against the rules every version obeys:
 * the type's key sizes, one kind per key, and unauthenticated modes only when the caller allows
 * them.
 */
final class NewVersions {
  private final Clock clock;

  NewVersions(Clock clock) {
    this.clock = clock;
  }

  /** A freshly generated version of {@code type} (not ff1) with a key of {@code bits} bits. */
  NewKeyVersion generated(int version, KeyType type, int bits) {
    return generated(version, type, bits, null);
  }

  /**
   * A freshly generated version of {@code type} with a key of {@code bits} bits; {@code fpe} is the
   * shape of an ff1 version's values (null for other types).
   */
  NewKeyVersion generated(int version, KeyType type, int bits, FpeFormat fpe) {
    if (!type.acceptsKeySize(bits)) {
      throw new InvalidArgumentException(
          "key_size_bits for "
              + type.typeName()
              + " must be one of "
              + type.keySizesBits()
              + ", got "
              + bits);
    }
    KeyVersionInfo info =
        type == KeyType.FF1
            ? KeyVersionInfo.formatPreserving(
                version, bits, clock.instant(), /* imported= */ false, fpe)
            : KeyVersionInfo.generated(version, type, bits, clock.instant());
    return new NewKeyVersion(info, NonceSource.bytes(bits / 8));
  }

  /** The size in bits of {@code material} imported as a key of {@code type}, once it fits. */
  static int checkedImportSize(KeyType type, byte[] material) {
    int bits = material.length * 8;
    if (!type.acceptsKeySize(bits)) {
      throw new InvalidArgumentException(
          "key_material for "
              + type.typeName()
              + " must be "
              + type.keySizesBits()
              + " bits, got "
              + bits);
    }
    return bits;
  }

  /**
   * The key size of a rotation into {@code type} from {@code current}: {@code requestedBits} if
   * given, else the current size if the type takes it, else the type's default.
   */
  static int rotatedSize(KeyVersionInfo current, KeyType type, int requestedBits) {
    if (requestedBits != 0) {
      return requestedBits;
    }
    return type.acceptsKeySize(current.keySizeBits())
        ? current.keySizeBits()
        : type.defaultKeySizeBits();
  }

  /** Stores copy what they keep, so the material handed to them is overwritten once they return. */
  static void wipe(NewKeyVersion version) {
    Arrays.fill(version.material(), (byte) 0);
  }

  /**
   * A key's versions are all of one kind: an index key's are all hmac, so a query never meets a
   * ciphertext; a legacy key's are all legacy, so a legacy version never becomes the one new data
   * is encrypted with, and an encryption key never turns decrypt-only.
   */
  static void checkSameKind(String name, KeyType current, KeyType chosen) {
    if (current.kind() != chosen.kind()) {
      String adding =
          chosen.kind() == KeyKind.LEGACY
              ? "a legacy version"
              : "a version in " + chosen.typeName() + " (" + chosen.kind().description() + "'s)";
      throw new InvalidArgumentException(
          "key '"
              + name
              + "' is "
              + current.kind().description()
              + " and cannot take "
              + adding
              + ": a key's versions are all of one kind; import or create it under another key name");
    }
  }

  /**
   * The format of a new ff1 key's first version, which {@code template} must give; refuses a
   * template of another type that gives one (KeyTemplate does) and returns null for it.
   */
  static FpeFormat formatOf(KeyType type, KeyTemplate template, String action) {
    if (type != KeyType.FF1) {
      return null;
    }
    if (template.fpe() == null) {
      throw new InvalidArgumentException(
          "fpe_format is required to " + action + " a format-preserving key (mode ff1)");
    }
    return template.fpe();
  }

  /**
   * A key with a version prefix names each version in its values: refuses a version the prefix
   * cannot write.
   */
  static void checkPrefixFits(String name, FpeFormat fpe, int version) {
    if (fpe != null && version > fpe.maxVersion()) {
      throw new KeyPolicyViolationException(
          "key '"
              + name
              + "' writes its version in a prefix of "
              + fpe.versionPrefixLength()
              + " characters, which names versions up to "
              + fpe.maxVersion()
              + ": it cannot take version "
              + version
              + "; create a new key and rewrap its values into it");
    }
  }

  /**
   * Refuses an unauthenticated mode unless the caller allowed it for {@code action}, e.g. "create a
   * key".
   */
  static void checkAuthenticated(KeyType type, boolean allowUnauthenticated, String action) {
    if (type.mode() != null && !type.mode().isAead() && !allowUnauthenticated) {
      throw new InvalidArgumentException(
          type.typeName()
              + " does not authenticate its ciphertexts; set "
              + "allow_unauthenticated to "
              + action
              + " "
              + type.typeName());
    }
  }
}

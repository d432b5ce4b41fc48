package io.cipherd.server.keys;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyKind;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import io.cipherd.server.crypto.transit.TransitKdf;
import java.time.Instant;
import java.util.Objects;

/**
 * The metadata of one key version; the key bytes are kept apart, in the key store.
 *
 * @param version 1 for the first version, then consecutive
 * @param type what the version's bytes are used as: a cipher mode's, an index key's or a legacy
 *     key's ({@link KeyType#LEGACY})
 * @param keySizeBits 128, 192 or 256 (or what the type or legacy cipher takes)
 * @param createdAt when the version was created or imported
 * @param imported whether the bytes came from ImportKey rather than this service's generator
 * @param legacy how a legacy version's ciphertexts were made; null exactly when the type is not
 *     {@link KeyType#LEGACY}
 * @param lifecycle whether the version's bytes still exist
 * @param fpe the shape of a format-preserving version's values; null exactly when the type is not
 *     {@link KeyType#FF1}
 * @param transitKdf how a version imported from a derived Vault Transit key derives each context's
 *     key; null for every other version. Such a version only opens Transit's ciphertexts: it is an
 *     imported gcm or chacha version that never encrypts.
 */
public record KeyVersionInfo(
    int version,
    KeyType type,
    int keySizeBits,
    Instant createdAt,
    boolean imported,
    LegacyFormat legacy,
    VersionLifecycle lifecycle,
    FpeFormat fpe,
    TransitKdf transitKdf) {
  /** A version that is not derived from Transit. */
  public KeyVersionInfo(
      int version,
      KeyType type,
      int keySizeBits,
      Instant createdAt,
      boolean imported,
      LegacyFormat legacy,
      VersionLifecycle lifecycle,
      FpeFormat fpe) {
    this(version, type, keySizeBits, createdAt, imported, legacy, lifecycle, fpe, null);
  }

  /** A version that is not format-preserving. */
  public KeyVersionInfo(
      int version,
      KeyType type,
      int keySizeBits,
      Instant createdAt,
      boolean imported,
      LegacyFormat legacy,
      VersionLifecycle lifecycle) {
    this(version, type, keySizeBits, createdAt, imported, legacy, lifecycle, null);
  }

  /** An enabled version. */
  public KeyVersionInfo(
      int version,
      KeyType type,
      int keySizeBits,
      Instant createdAt,
      boolean imported,
      LegacyFormat legacy) {
    this(version, type, keySizeBits, createdAt, imported, legacy, VersionLifecycle.ENABLED);
  }

  public KeyVersionInfo {
    Objects.requireNonNull(lifecycle, "lifecycle");
    if (version < 1) {
      throw new IllegalArgumentException("key version must be at least 1, got " + version);
    }
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(createdAt, "createdAt");
    if ((type == KeyType.LEGACY) != (legacy != null)) {
      throw new IllegalArgumentException("a legacy format goes with type legacy and only with it");
    }
    if ((type == KeyType.FF1) != (fpe != null)) {
      throw new IllegalArgumentException("an FF1 format goes with type ff1 and only with it");
    }
    if (transitKdf != null
        && (!imported || (type.mode() != CipherMode.GCM && type.mode() != CipherMode.CHACHA))) {
      throw new IllegalArgumentException(
          "a Transit KDF goes with an imported gcm or chacha version only");
    }
    if (legacy != null
        && (keySizeBits % 8 != 0 || !legacy.cipher().acceptsKeyLength(keySizeBits / 8))) {
      throw new IllegalArgumentException(
          legacy.cipher().storeName()
              + " takes keys of "
              + legacy.cipher().keyLengths()
              + ", not "
              + keySizeBits
              + " bits");
    }
    if (legacy == null && !type.acceptsKeySize(keySizeBits)) {
      throw new IllegalArgumentException(
          type.typeName() + " takes keys of " + type.keySizesBits() + " bits, not " + keySizeBits);
    }
  }

  /** A version this service generated, of {@code type} (not legacy). */
  public static KeyVersionInfo generated(
      int version, KeyType type, int keySizeBits, Instant createdAt) {
    return new KeyVersionInfo(
        version, type, keySizeBits, createdAt, /* imported= */ false, /* legacy= */ null);
  }

  /** A version whose bytes a caller imported, of {@code type} (not legacy). */
  public static KeyVersionInfo imported(
      int version, KeyType type, int keySizeBits, Instant createdAt) {
    return new KeyVersionInfo(
        version, type, keySizeBits, createdAt, /* imported= */ true, /* legacy= */ null);
  }

  /** A format-preserving version, generated or {@code imported}, whose values keep {@code fpe}. */
  public static KeyVersionInfo formatPreserving(
      int version, int keySizeBits, Instant createdAt, boolean imported, FpeFormat fpe) {
    return new KeyVersionInfo(
        version,
        KeyType.FF1,
        keySizeBits,
        createdAt,
        imported,
        /* legacy= */ null,
        VersionLifecycle.ENABLED,
        fpe);
  }

  /**
   * A version imported from a derived Vault Transit key, of {@code type} (gcm or chacha), whose
   * bytes derive each context's key with {@code kdf}.
   */
  public static KeyVersionInfo transitDerived(
      int version, KeyType type, int keySizeBits, Instant createdAt, TransitKdf kdf) {
    return new KeyVersionInfo(
        version,
        type,
        keySizeBits,
        createdAt,
        /* imported= */ true,
        /* legacy= */ null,
        VersionLifecycle.ENABLED,
        /* fpe= */ null,
        Objects.requireNonNull(kdf, "kdf"));
  }

  /** A legacy version: always imported. */
  public static KeyVersionInfo legacy(
      int version, LegacyFormat format, int keySizeBits, Instant createdAt) {
    return new KeyVersionInfo(
        version, KeyType.LEGACY, keySizeBits, createdAt, /* imported= */ true, format);
  }

  /** This version in another lifecycle state. */
  public KeyVersionInfo withLifecycle(VersionLifecycle next) {
    return new KeyVersionInfo(
        version, type, keySizeBits, createdAt, imported, legacy, next, fpe, transitKdf);
  }

  /** What the version's key is for. */
  public KeyKind kind() {
    return type.kind();
  }

  /** The cipher mode of an encryption key's version; null for index and legacy versions. */
  public CipherMode mode() {
    return type.mode();
  }

  /** Whether this version was imported from a derived Transit key: it opens Transit's only. */
  public boolean isTransitDerived() {
    return transitKdf != null;
  }

  /** Whether this is a legacy version: decrypt-only, for ReEncrypt. */
  public boolean isLegacy() {
    return legacy != null;
  }

  /** The JCE algorithm name of this version's key: its type's, or its legacy cipher's. */
  public String keyAlgorithm() {
    return legacy != null ? legacy.cipher().keyAlgorithm() : type.keyAlgorithm();
  }
}

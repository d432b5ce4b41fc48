package io.cipherd.server.keys;

import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import java.time.Instant;
import java.util.Objects;

/**
 * The metadata of one key version; the key bytes are kept apart, in the key store.
 *
 * @param version 1 for the first version, then consecutive
 * @param mode the only mode this version's bytes are used with; {@link Mode#LEGACY} for a legacy
 *     version
 * @param keySizeBits 128, 192 or 256 (or what the mode or legacy cipher takes)
 * @param createdAt when the version was created or imported
 * @param imported whether the bytes came from ImportKey rather than this service's generator
 * @param legacy how a legacy version's ciphertexts were made; null exactly when the mode is not
 *     {@link Mode#LEGACY}
 */
public record KeyVersionInfo(
    int version,
    Mode mode,
    int keySizeBits,
    Instant createdAt,
    boolean imported,
    LegacyFormat legacy) {
  public KeyVersionInfo {
    if (version < 1) {
      throw new IllegalArgumentException("key version must be at least 1, got " + version);
    }
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(createdAt, "createdAt");
    if ((mode == Mode.LEGACY) != (legacy != null)) {
      throw new IllegalArgumentException("a legacy format goes with mode legacy and only with it");
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
    if (legacy == null && !mode.acceptsKeySize(keySizeBits)) {
      throw new IllegalArgumentException(
          mode.headerName()
              + " takes keys of "
              + mode.keySizesBits()
              + " bits, not "
              + keySizeBits);
    }
  }

  /** A version in a cipherd mode (not legacy). */
  public KeyVersionInfo(
      int version, Mode mode, int keySizeBits, Instant createdAt, boolean imported) {
    this(version, mode, keySizeBits, createdAt, imported, null);
  }

  /** A legacy version: always imported. */
  public static KeyVersionInfo legacy(
      int version, LegacyFormat format, int keySizeBits, Instant createdAt) {
    return new KeyVersionInfo(
        version, Mode.LEGACY, keySizeBits, createdAt, /* imported= */ true, format);
  }

  /** Whether this is a legacy version: decrypt-only, for ReEncrypt. */
  public boolean isLegacy() {
    return legacy != null;
  }

  /** The JCE algorithm name of this version's key: its mode's, or its legacy cipher's. */
  public String keyAlgorithm() {
    return legacy != null ? legacy.cipher().keyAlgorithm() : mode.keyAlgorithm();
  }
}

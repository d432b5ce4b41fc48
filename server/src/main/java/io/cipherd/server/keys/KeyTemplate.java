package io.cipherd.server.keys;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.lifecycle.KeyAdmin;

/**
 * What a new key version is to be, as {@link KeyAdmin}'s create, rotate and import take it (as
 * Tink's key templates describe the keys to make).
 *
 * @param type the version's type; null for the default: gcm for a new key or an import, the current
 *     version's type for a rotation
 * @param keySizeBits the key size; 0 for the default: the type's (256 bits but for siv), or the
 *     current version's size for a rotation that keeps its type; an import takes the material's
 * @param allowUnauthenticated whether the caller accepts an unauthenticated mode (cbc, ctr, cfb,
 *     ofb, ecb), which is refused otherwise
 * @param fpe the shape of a format-preserving key's values: required to create or import an ff1
 *     key, refused with any other type; null for a rotation, which keeps the current version's
 */
public record KeyTemplate(
    KeyType type, int keySizeBits, boolean allowUnauthenticated, FpeFormat fpe) {
  /** The {@link #keySizeBits} that means the default. */
  public static final int DEFAULT_SIZE = 0;

  /** The {@link #type} that means the default. */
  private static final KeyType DEFAULT_TYPE = null;

  private static final boolean AUTHENTICATED_ONLY = false;
  private static final boolean UNAUTHENTICATED_ALLOWED = true;

  public KeyTemplate {
    if (type == KeyType.LEGACY) {
      throw new InvalidArgumentException(
          "legacy versions are imported with legacy_cipher, never generated or given a mode");
    }
    if (fpe != null && type != KeyType.FF1) {
      throw new InvalidArgumentException(
          "fpe_format is for format-preserving keys only: set mode MODE_FF1 with it, or leave it"
              + " out");
    }
  }

  /** A template of no format-preserving shape. */
  public KeyTemplate(KeyType type, int keySizeBits, boolean allowUnauthenticated) {
    this(type, keySizeBits, allowUnauthenticated, null);
  }

  /** A version of a format-preserving key (FF1) whose values keep {@code fpe}. */
  public static KeyTemplate formatPreserving(FpeFormat fpe) {
    return new KeyTemplate(KeyType.FF1, DEFAULT_SIZE, AUTHENTICATED_ONLY, fpe);
  }

  /** Everything the default: the server's choice of type and size, authenticated modes only. */
  public static KeyTemplate defaults() {
    return new KeyTemplate(DEFAULT_TYPE, DEFAULT_SIZE, AUTHENTICATED_ONLY);
  }

  /** A version of an encryption key in {@code mode}, of the mode's default size. */
  public static KeyTemplate of(CipherMode mode) {
    return new KeyTemplate(mode, DEFAULT_SIZE, AUTHENTICATED_ONLY);
  }

  /** A version of an index key (HMAC-SHA-256, 256 bits). */
  public static KeyTemplate index() {
    return new KeyTemplate(KeyType.INDEX, DEFAULT_SIZE, AUTHENTICATED_ONLY);
  }

  /** This template with keys of {@code bits} bits. */
  public KeyTemplate withKeySizeBits(int bits) {
    return new KeyTemplate(type, bits, allowUnauthenticated, fpe);
  }

  /** This template, accepting an unauthenticated mode. */
  public KeyTemplate allowingUnauthenticated() {
    return new KeyTemplate(type, keySizeBits, UNAUTHENTICATED_ALLOWED, fpe);
  }

  /** {@link #type}, or {@code fallback} if it is the default. */
  public KeyType typeOr(KeyType fallback) {
    return type == DEFAULT_TYPE ? fallback : type;
  }
}

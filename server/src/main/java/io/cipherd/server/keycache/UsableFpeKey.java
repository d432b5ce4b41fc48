package io.cipherd.server.keycache;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.fpe.FpeFormat;

/**
 * A format-preserving key version ready for FF1: the version and its key bytes ({@link #key}), and
 * the shape of its values.
 */
public record UsableFpeKey(UsableKey key, FpeFormat format) {
  /** The version, as operations with it report it. */
  public KeyVersionRef version() {
    return key.version();
  }

  @Override
  public String toString() {
    return "UsableFpeKey[" + key.version().versionedName() + ", " + format + "]";
  }
}

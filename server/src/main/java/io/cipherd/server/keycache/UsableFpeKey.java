package io.cipherd.server.keycache;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.fpe.Ff1;
import io.cipherd.server.crypto.fpe.Ff1Key;
import io.cipherd.server.crypto.fpe.FpeFormat;

/**
 * A format-preserving key version ready for FF1: the version and its key bytes ({@link #key}) with
 * its FF1 ({@link #ff1}), and the shape of its values.
 */
public record UsableFpeKey(UsableKey key, FpeFormat format) {
  /** The version, as operations with it report it. */
  public KeyVersionRef version() {
    return key.version();
  }

  /** FF1 under the version's key, set up once per version ({@link Ff1Key}). */
  public Ff1 ff1() {
    return Ff1Key.of(key.secret()).ff1();
  }

  @Override
  public String toString() {
    return "UsableFpeKey[" + key.version().versionedName() + ", " + format + "]";
  }
}

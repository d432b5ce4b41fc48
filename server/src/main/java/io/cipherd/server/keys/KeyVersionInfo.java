package io.cipherd.server.keys;

import io.cipherd.server.crypto.Mode;
import java.time.Instant;
import java.util.Objects;

/**
 * The metadata of one key version; the key bytes are kept apart, in the key store.
 *
 * @param version 1 for the first version, then consecutive
 * @param mode the only mode this version's bytes are used with
 * @param keySizeBits 128, 192 or 256
 * @param createdAt when the version was created or imported
 * @param imported whether the bytes came from ImportKey rather than this service's generator
 */
public record KeyVersionInfo(int version, Mode mode, int keySizeBits, Instant createdAt, boolean imported) {
  public KeyVersionInfo {
    if (version < 1) {
      throw new IllegalArgumentException("key version must be at least 1, got " + version);
    }
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(createdAt, "createdAt");
    if (!mode.acceptsKeySize(keySizeBits)) {
      throw new IllegalArgumentException(
          mode.headerName() + " takes keys of " + mode.keySizesBits() + " bits, not " + keySizeBits);
    }
  }
}

package io.cipherd.client;

/** Where a legacy key's ciphertexts carry their IV. */
public enum LegacyIv {
  /** The data is IV ‖ ciphertext (the default for ciphers with an IV). */
  PREPENDED,
  /** Each {@link LegacyCiphertext} brings its IV. */
  SEPARATE,
  /** Every ciphertext used the one IV given at import. */
  FIXED;

  io.cipherd.api.v1.LegacyIv toProto() {
    return io.cipherd.api.v1.LegacyIv.valueOf("LEGACY_IV_" + name());
  }
}

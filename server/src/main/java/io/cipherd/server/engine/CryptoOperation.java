package io.cipherd.server.engine;

/** The crypto operations the engine reports; a rewrap reports one of each. */
public enum CryptoOperation {
  ENCRYPT,
  DECRYPT,
  /** A blind index computed with an index key. */
  INDEX,
  /**
   * A blind index an all-versions lookup computed under a version besides the one it asked for:
   * counted apart from {@link #INDEX}, so lookups do not keep old index versions in use.
   */
  INDEX_LOOKUP,
  /**
   * A ciphertext of the version rewrapped (reported besides its decrypt, for the version census).
   */
  REWRAP
}

package io.cipherd.server.engine;

/** The crypto operations the engine reports; a rewrap reports one of each. */
public enum CryptoOperation {
  ENCRYPT,
  DECRYPT,
  /** A blind index computed with an index key. */
  INDEX,
  /**
   * A ciphertext of the version rewrapped (reported besides its decrypt, for the version census).
   */
  REWRAP
}

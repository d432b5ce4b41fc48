package io.cipherd.server.engine;

/** The crypto operations the engine reports; a rewrap reports one of each. */
public enum CryptoOperation {
  ENCRYPT,
  DECRYPT
}

package io.cipherd.server.crypto;

import javax.crypto.SecretKey;

/**
 * Turns a key version's bytes into the form its mode works with, precomputing what it can once per
 * version.
 */
public final class ModeKeys {
  private ModeKeys() {}

  /**
   * {@code key} ready for {@code mode}: XAES's K1 derived, AES-SIV's subkeys built; other modes as
   * given.
   */
  public static SecretKey prepare(Mode mode, SecretKey key) {
    return switch (mode) {
      case XGCM -> XaesKey.of(key);
      case SIV -> SivKey.of(key);
      default -> key;
    };
  }
}

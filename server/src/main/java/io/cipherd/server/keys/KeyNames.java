package io.cipherd.server.keys;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/** The check every key name from a caller passes before any store is asked about it. */
public final class KeyNames {
  private KeyNames() {}

  /** Throws INVALID_ARGUMENT unless {@code name} is a valid key name. */
  public static void check(String name) {
    EnvelopeHeader.checkKeyName(name);
  }
}

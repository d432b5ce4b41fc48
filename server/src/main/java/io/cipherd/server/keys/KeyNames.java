package io.cipherd.server.keys;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;

/** The check every key name from a caller passes before any store is asked about it. */
final class KeyNames {
  private KeyNames() {}

  /** Throws {@link InvalidArgumentException} unless {@code name} is a valid key name. */
  static void check(String name) {
    if (name == null || name.isEmpty()) {
      throw new InvalidArgumentException("key_name is required");
    }
    if (!EnvelopeHeader.isValidKeyName(name)) {
      throw new InvalidArgumentException("key_name must match " + EnvelopeHeader.KEY_NAME_SYNTAX);
    }
  }
}

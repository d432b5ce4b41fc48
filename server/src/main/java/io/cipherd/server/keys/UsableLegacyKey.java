package io.cipherd.server.keys;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import javax.crypto.SecretKey;

/**
 * A legacy key version ready to decrypt: its name, number and {@code legacy} mode as a header (for
 * metrics; it never starts a ciphertext), its key bytes, and how its ciphertexts were made.
 */
public record UsableLegacyKey(EnvelopeHeader header, SecretKey secret, LegacyFormat format) {
  @Override
  public String toString() {
    return "UsableLegacyKey[" + header.versionedName() + ", " + format + "]";
  }
}

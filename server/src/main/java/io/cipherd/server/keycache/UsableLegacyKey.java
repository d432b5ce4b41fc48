package io.cipherd.server.keycache;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.legacy.LegacyFormat;
import javax.crypto.SecretKey;

/**
 * A legacy key version ready to decrypt: which version it is (type legacy, for metrics; it never
 * starts a ciphertext), its key bytes, and how its ciphertexts were made.
 */
public record UsableLegacyKey(KeyVersionRef version, SecretKey secret, LegacyFormat format) {
  @Override
  public String toString() {
    return "UsableLegacyKey[" + version.versionedName() + ", " + format + "]";
  }
}

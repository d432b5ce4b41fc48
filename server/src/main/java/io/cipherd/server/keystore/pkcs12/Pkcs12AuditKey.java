package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import java.util.Arrays;
import javax.crypto.spec.SecretKeySpec;

/**
 * The audit key in the PKCS12 file: a 256-bit secret entry under an alias no key version can have
 * (key names never start with '_', and version aliases are {@code NAME/vN}), created on first use
 * under the store's lock.
 */
final class Pkcs12AuditKey {
  static final String ALIAS = "_cipherd-audit-key";
  static final int LENGTH = 32;

  private Pkcs12AuditKey() {}

  /** The stored audit key, created and stored first if there is none; the caller's to wipe. */
  static byte[] readOrCreate(Pkcs12File p12) {
    byte[] stored = p12.readSecret(ALIAS);
    if (stored == null) {
      byte[] fresh = NonceSource.bytes(LENGTH);
      try {
        p12.addSecret(ALIAS, new SecretKeySpec(fresh, "AES"));
        return fresh.clone();
      } finally {
        Arrays.fill(fresh, (byte) 0);
      }
    }
    if (stored.length != LENGTH) {
      Arrays.fill(stored, (byte) 0);
      throw new KeyStoreUnavailableException(
          p12.path() + " holds an audit key that is not " + LENGTH + " bytes");
    }
    return stored;
  }
}

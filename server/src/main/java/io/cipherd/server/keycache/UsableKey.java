package io.cipherd.server.keycache;

import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.keys.WipeableSecretKey;
import javax.crypto.SecretKey;

/**
 * One key version ready for the crypto path: which version it is (for an encryption key, the header
 * reused for every ciphertext it makes) and its key bytes. Only the key ring hands these out.
 */
public final class UsableKey {
  private final KeyVersionRef version;
  private final SecretKey secret;

  UsableKey(KeyVersionRef version, SecretKey secret) {
    this.version = version;
    this.secret = secret;
  }

  /** The version, as operations with it report it. */
  public KeyVersionRef version() {
    return version;
  }

  /**
   * The header of an encryption key's version; index versions start no ciphertext and have none.
   */
  public EnvelopeHeader header() {
    if (version instanceof EnvelopeHeader header) {
      return header;
    }
    throw new IllegalStateException(
        version.versionedName() + " is " + version.type().kind().description() + "'s version");
  }

  /** The key bytes, for the JCE only. */
  public SecretKey secret() {
    return secret;
  }

  /** Overwrites the key bytes, if the store's key allows it; only on eviction from the key ring. */
  void destroy() {
    WipeableSecretKey.destroyQuietly(secret);
  }

  @Override
  public String toString() {
    return "UsableKey[" + version + "]";
  }
}

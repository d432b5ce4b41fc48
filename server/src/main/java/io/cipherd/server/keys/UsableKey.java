package io.cipherd.server.keys;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import javax.crypto.SecretKey;

/**
 * One key version ready for the crypto path: its header (reused for every ciphertext it makes) and
 * its key bytes. Only the key ring hands these out.
 */
public final class UsableKey {
  private final EnvelopeHeader header;
  private final SecretKey secret;

  UsableKey(EnvelopeHeader header, SecretKey secret) {
    this.header = header;
    this.secret = secret;
  }

  public EnvelopeHeader header() {
    return header;
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
    return "UsableKey[" + header + "]";
  }
}

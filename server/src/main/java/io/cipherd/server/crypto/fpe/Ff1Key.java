package io.cipherd.server.crypto.fpe;

import java.util.Arrays;
import javax.crypto.SecretKey;
import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;

/**
 * A format-preserving key version's bytes with its {@link Ff1}, set up once per version: it stands
 * in for the version's key in the key cache, so every value FF1 encrypts or decrypts with the
 * version reuses its engines instead of copying the key and computing an AES key schedule per
 * value. Destroying it wipes the FF1 copy of the key and drops its engines, then destroys the key
 * it wraps, when the cache evicts the version as it evicts every other mode's.
 */
public final class Ff1Key implements SecretKey {
  private static final long serialVersionUID = 1L;

  private final transient SecretKey key;
  private final transient Ff1 ff1;

  private Ff1Key(SecretKey key, Ff1 ff1) {
    this.key = key;
    this.ff1 = ff1;
  }

  /** {@code key} with its FF1 set up, or {@code key} itself if it already is one. */
  public static Ff1Key of(SecretKey key) {
    if (key instanceof Ff1Key prepared) {
      return prepared;
    }
    byte[] bytes = key.getEncoded();
    try {
      return new Ff1Key(key, Ff1.withKey(bytes));
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  /** FF1 under this version's key, shared by every call that uses the version. */
  public Ff1 ff1() {
    return ff1;
  }

  @Override
  public String getAlgorithm() {
    return key.getAlgorithm();
  }

  @Override
  public String getFormat() {
    return key.getFormat();
  }

  @Override
  public byte[] getEncoded() {
    return key.getEncoded();
  }

  /** Wipes FF1's copy of the key and drops its engines, then destroys the wrapped key if it can. */
  @Override
  public void destroy() throws DestroyFailedException {
    ff1.destroy();
    if (key instanceof Destroyable destroyable) {
      destroyable.destroy();
    }
  }

  @Override
  public boolean isDestroyed() {
    return ff1.isDestroyed()
        && (!(key instanceof Destroyable destroyable) || destroyable.isDestroyed());
  }

  @Override
  public String toString() {
    return "Ff1Key[" + key + "]";
  }
}

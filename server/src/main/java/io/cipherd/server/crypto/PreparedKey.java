package io.cipherd.server.crypto;

import javax.crypto.SecretKey;
import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;

/**
 * A key version's bytes with what its mode derives from them once per version ({@link
 * XaesGcm.XaesKey}, {@link Siv.SivKey}). It stands in for the version's key everywhere: the JCE
 * methods and destruction go to the key it wraps.
 */
abstract class PreparedKey implements SecretKey {
  private static final long serialVersionUID = 1L;

  private final transient SecretKey key;

  PreparedKey(SecretKey key) {
    this.key = key;
  }

  /** The version's own key. */
  final SecretKey key() {
    return key;
  }

  @Override
  public final String getAlgorithm() {
    return key.getAlgorithm();
  }

  @Override
  public final String getFormat() {
    return key.getFormat();
  }

  @Override
  public final byte[] getEncoded() {
    return key.getEncoded();
  }

  /** Destroys the wrapped key if it can be destroyed; subclasses wipe what they derived first. */
  @Override
  public void destroy() throws DestroyFailedException {
    if (key instanceof Destroyable destroyable) {
      destroyable.destroy();
    }
  }

  @Override
  public final boolean isDestroyed() {
    return key instanceof Destroyable destroyable && destroyable.isDestroyed();
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "[" + key + "]";
  }
}

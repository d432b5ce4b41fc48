package io.cipherd.server.keys;

import java.util.Arrays;
import javax.crypto.SecretKey;
import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;

/**
 * Raw key bytes that can be overwritten in place: unlike {@code SecretKeySpec}, {@link #destroy()}
 * zeroes them. It owns the array it is given (no copy is made); {@link #getEncoded()} hands the JCE
 * a fresh copy each time, as {@link SecretKey} requires, and fails once the key is destroyed.
 */
public final class WipeableSecretKey implements SecretKey {
  private static final long serialVersionUID = 1L;

  private final transient byte[] bytes;
  private final String algorithm;
  private volatile boolean destroyed;

  /** Takes ownership of {@code bytes}: the caller must not keep or reuse the array. */
  public WipeableSecretKey(byte[] bytes, String algorithm) {
    if (bytes == null || bytes.length == 0) {
      throw new IllegalArgumentException("key bytes are required");
    }
    this.bytes = bytes;
    this.algorithm = algorithm;
  }

  @Override
  public String getAlgorithm() {
    return algorithm;
  }

  @Override
  public String getFormat() {
    return "RAW";
  }

  /** A copy of the key bytes; throws {@link KeyStoreUnavailableException} once destroyed. */
  @Override
  public byte[] getEncoded() {
    byte[] copy = bytes.clone();
    // destroy() sets the flag before it zeroes, so a copy taken during a wipe is caught here.
    if (destroyed) {
      Arrays.fill(copy, (byte) 0);
      throw new KeyStoreUnavailableException(
          "a key version was evicted from memory while in use; retry");
    }
    return copy;
  }

  /** Overwrites the key bytes with zeros; every later {@link #getEncoded()} fails. */
  @Override
  public void destroy() {
    destroyed = true;
    Arrays.fill(bytes, (byte) 0);
  }

  @Override
  public boolean isDestroyed() {
    return destroyed;
  }

  @Override
  public String toString() {
    return "WipeableSecretKey["
        + algorithm
        + ", "
        + bytes.length * 8
        + " bits"
        + (destroyed ? ", destroyed" : "")
        + "]";
  }

  /** Destroys {@code key} if it can be destroyed; a no-op for keys that cannot. */
  public static void destroyQuietly(SecretKey key) {
    if (key instanceof Destroyable destroyable && !destroyable.isDestroyed()) {
      try {
        destroyable.destroy();
      } catch (DestroyFailedException unsupported) {
        // SecretKeySpec and most provider keys cannot be wiped; nothing more we can do.
      }
    }
  }
}

package io.cipherd.server.crypto;

import com.google.crypto.tink.subtle.AesSiv;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.SecretKey;
import javax.security.auth.DestroyFailedException;
import javax.security.auth.Destroyable;

/**
 * An AES-SIV key version (RFC 5297, 512 bits: the S2V/CMAC key, then the CTR key) with Tink's
 * implementation built once per version: building it derives the CMAC subkeys. Tink's object is
 * thread-safe and keeps its own copy of the key, which cannot be wiped; the version's own bytes can.
 */
public final class SivKey implements SecretKey {
  private static final long serialVersionUID = 1L;

  private final transient SecretKey key;
  private final transient AesSiv siv;

  private SivKey(SecretKey key, AesSiv siv) {
    this.key = key;
    this.siv = siv;
  }

  /** The SIV form of a 512-bit {@code key}. */
  public static SivKey of(SecretKey key) {
    if (key instanceof SivKey siv) {
      return siv;
    }
    byte[] bytes = key.getEncoded();
    try {
      return new SivKey(key, new AesSiv(bytes));
    } catch (GeneralSecurityException e) {
      throw new CryptoProviderException(Mode.SIV, e);
    } finally {
      Arrays.fill(bytes, (byte) 0);
    }
  }

  AesSiv siv() {
    return siv;
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

  @Override
  public void destroy() throws DestroyFailedException {
    if (key instanceof Destroyable destroyable) {
      destroyable.destroy();
    }
  }

  @Override
  public boolean isDestroyed() {
    return key instanceof Destroyable destroyable && destroyable.isDestroyed();
  }

  @Override
  public String toString() {
    return "SivKey[" + key + "]";
  }
}

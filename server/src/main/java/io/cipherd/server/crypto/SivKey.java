package io.cipherd.server.crypto;

import com.google.crypto.tink.subtle.AesSiv;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * An AES-SIV key version (RFC 5297, 512 bits: the S2V/CMAC key, then the CTR key) with Tink's
 * implementation built once per version: building it derives the CMAC subkeys. Tink's object is
 * thread-safe and keeps its own copy of the key, which cannot be wiped; the version's own bytes
 * can.
 */
public final class SivKey extends PreparedKey {
  private static final long serialVersionUID = 1L;

  private final transient AesSiv siv;

  private SivKey(SecretKey key, AesSiv siv) {
    super(key);
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
}

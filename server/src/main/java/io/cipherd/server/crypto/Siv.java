package io.cipherd.server.crypto;

import com.google.crypto.tink.subtle.AesSiv;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * AES-SIV (RFC 5297) with a 512-bit key, deterministic: {@code V ‖ C}, the 16-byte synthetic IV
 * first, computed over one associated-data component, {@code header ‖ context}. Equal plaintexts
 * and contexts give equal ciphertexts. Tink implements it (the JCE has no SIV), so it borrows no
 * pooled cipher; Tink's API takes and returns whole arrays, so each message copies its input and
 * output once. The key is prepared once per version ({@link #prepare}).
 *
 * <p>Tink keeps one AES-ECB (for S2V's CMAC) and one AES-CTR {@code Cipher} per thread, and each
 * keeps the expanded key, and a copy of the key, of the last message that thread sealed or opened:
 * the bytes of a destroyed version would stay there until the thread's next AES-SIV message. So the
 * thread's ciphers are re-keyed with {@link #BLANK}, an all-zero key, by sealing an empty message
 * under it: after each message, or once at the end of a {@link ThreadKeyScope} (a batch) whose
 * messages all run on this thread.
 */
final class Siv extends ModeFamily {
  private static final String ALGORITHM = "AES-SIV";
  private static final byte[] EMPTY = new byte[0];
  private static final AesSiv BLANK = blank();

  Siv(CipherMode mode) {
    super(mode);
  }

  @Override
  public SecretKey prepare(SecretKey key) {
    return SivKey.of(key);
  }

  @Override
  void sealPayload(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] payload) {
    byte[] input = plaintext.toArray();
    try {
      byte[] sealed =
          SivKey.of(key).siv().encryptDeterministically(input, associatedData(header, context));
      System.arraycopy(sealed, 0, payload, 0, sealed.length);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new CryptoProviderException(ALGORITHM, e);
    } finally {
      Arrays.fill(input, (byte) 0);
      ThreadKeyScope.used();
    }
  }

  @Override
  int openPayload(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out) {
    byte[] opened;
    try {
      opened =
          SivKey.of(key)
              .siv()
              .decryptDeterministically(payload.toArray(), associatedData(header, context));
    } catch (GeneralSecurityException e) {
      // Tink throws AEADBadTagException (a GeneralSecurityException) for a wrong tag, key or
      // context.
      throw new DecryptionFailedException();
    } catch (RuntimeException e) {
      throw new CryptoProviderException(ALGORITHM, e);
    } finally {
      ThreadKeyScope.used();
    }
    System.arraycopy(opened, 0, out, 0, opened.length);
    Arrays.fill(opened, (byte) 0);
    return opened.length;
  }

  /** Re-keys this thread's Tink ciphers with {@link #BLANK}, so they keep no version's key. */
  static void forgetThreadKeys() {
    try {
      BLANK.encryptDeterministically(EMPTY, EMPTY);
    } catch (GeneralSecurityException e) {
      throw new CryptoProviderException(ALGORITHM, e);
    }
  }

  private static AesSiv blank() {
    try {
      return new AesSiv(new byte[64]);
    } catch (GeneralSecurityException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static byte[] associatedData(byte[] header, Bytes context) {
    int headerLength = header == null ? 0 : header.length;
    byte[] ad = new byte[headerLength + context.length()];
    if (headerLength > 0) {
      System.arraycopy(header, 0, ad, 0, headerLength);
    }
    System.arraycopy(context.array(), context.offset(), ad, headerLength, context.length());
    return ad;
  }

  /**
   * An AES-SIV key version (the S2V/CMAC key, then the CTR key) with Tink's implementation built
   * once per version: building it derives the CMAC subkeys. Tink's object is thread-safe and keeps
   * its own copy of the key, which cannot be wiped; the version's own bytes can.
   */
  static final class SivKey extends PreparedKey {
    private static final long serialVersionUID = 1L;

    private final transient AesSiv siv;

    private SivKey(SecretKey key, AesSiv siv) {
      super(key);
      this.siv = siv;
    }

    /** The SIV form of a 512-bit {@code key}. */
    static SivKey of(SecretKey key) {
      if (key instanceof SivKey siv) {
        return siv;
      }
      byte[] bytes = key.getEncoded();
      try {
        return new SivKey(key, new AesSiv(bytes));
      } catch (GeneralSecurityException e) {
        throw new CryptoProviderException(ALGORITHM, e);
      } finally {
        Arrays.fill(bytes, (byte) 0);
      }
    }

    AesSiv siv() {
      return siv;
    }
  }
}

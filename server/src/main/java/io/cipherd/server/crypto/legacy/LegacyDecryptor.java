package io.cipherd.server.crypto.legacy;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.errors.InvalidArgumentException;
import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Arrays;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * Decrypts one legacy ciphertext to its plaintext, with the IV where the version's {@link
 * IvConvention} says. Anything about the ciphertext that does not fit (too short, a wrong length,
 * padding, a GCM tag) fails as {@link DecryptionFailedException} and nothing more, so it is no
 * oracle; only the shape of the request ({@code legacy.iv}) is an invalid argument.
 *
 * <p>Legacy rewraps are a migration path, not a hot one: each gets a fresh JCE cipher rather than a
 * pooled one.
 */
public final class LegacyDecryptor {
  private LegacyDecryptor() {}

  /**
   * Decrypts {@code data} (as stored: with the IV first under {@link IvConvention#PREPENDED}) with
   * {@code key} into {@code out} from index 0, which needs {@code data.length} bytes; returns the
   * plaintext's length. {@code itemIv} is the request's own IV, empty unless the convention is
   * {@link IvConvention#SEPARATE}. {@code out} may hold part of a plaintext even when this throws:
   * the caller wipes it either way.
   */
  public static int decrypt(
      LegacyFormat format, SecretKey key, byte[] data, byte[] itemIv, byte[] out) {
    LegacyCipher cipher = format.cipher();
    checkItemIv(format, itemIv);
    int ivLength = cipher.ivLength();
    byte[] iv;
    int from;
    switch (format.iv()) {
      case PREPENDED -> {
        if (data.length < ivLength) {
          throw new DecryptionFailedException();
        }
        iv = data;
        from = ivLength;
      }
      case SEPARATE -> {
        iv = itemIv;
        from = 0;
      }
      case FIXED -> {
        iv = format.fixedIvShared();
        from = 0;
      }
      default -> {
        iv = null;
        from = 0;
      }
    }
    int length = data.length - from;
    if (length == 0 && cipher.isPadded()) {
      // The JCE decrypts nothing to nothing; padding makes every real ciphertext one block at
      // least.
      throw new DecryptionFailedException();
    }
    if (cipher == LegacyCipher.RC4) {
      byte[] keyBytes = key.getEncoded();
      try {
        Rc4.apply(keyBytes, data, from, length, out);
        return length;
      } finally {
        Arrays.fill(keyBytes, (byte) 0);
      }
    }
    try {
      Cipher jce = Cipher.getInstance(cipher.transformation());
      jce.init(Cipher.DECRYPT_MODE, key, parameters(cipher, iv));
      return jce.doFinal(data, from, length, out, 0);
    } catch (BadPaddingException | IllegalBlockSizeException e) {
      // AEADBadTagException is a BadPaddingException: a wrong tag or key. A wrong length is the
      // other.
      throw new DecryptionFailedException();
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new CryptoProviderException(cipher.transformation(), e);
    }
  }

  /** A separate IV of the cipher's length when the convention says so; none otherwise. */
  private static void checkItemIv(LegacyFormat format, byte[] itemIv) {
    int ivLength = format.cipher().ivLength();
    if (format.iv() == IvConvention.SEPARATE && itemIv.length != ivLength) {
      throw new InvalidArgumentException(
          "legacy.iv must be the item's "
              + ivLength
              + "-byte IV for "
              + format.cipher().storeName()
              + " (the key's IV convention is separate), got "
              + itemIv.length
              + " bytes");
    }
    if (format.iv() != IvConvention.SEPARATE && itemIv.length > 0) {
      throw new InvalidArgumentException(
          "legacy.iv is only for keys whose IV convention is separate; this key "
              + "version's is "
              + format.iv().storeName());
    }
  }

  private static AlgorithmParameterSpec parameters(LegacyCipher cipher, byte[] iv) {
    if (!cipher.takesIv()) {
      return null;
    }
    return cipher.tagLength() > 0
        ? new GCMParameterSpec(cipher.tagLength() * 8, iv, 0, cipher.ivLength())
        : new IvParameterSpec(iv, 0, cipher.ivLength());
  }
}

package io.cipherd.server.crypto.keywrap;

import io.cipherd.server.crypto.CryptoProviderException;
import io.cipherd.server.crypto.NonceSource;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.MGF1ParameterSpec;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.NoSuchPaddingException;
import javax.crypto.spec.OAEPParameterSpec;
import javax.crypto.spec.PSource;
import javax.crypto.spec.SecretKeySpec;

/**
 * CKM_RSA_AES_KEY_WRAP as AWS KMS (RSA_AES_KEY_WRAP_SHA_256) and Cloud KMS
 * (RSA_OAEP_*_SHA256_AES_256) take key material: the blob is the RSA-OAEP encryption (SHA-256, MGF1
 * with SHA-256, empty label) of an ephemeral AES-256 key, as long as the RSA modulus, followed by
 * the AES key wrap with padding (RFC 5649) of the material under that key. Imports unwrap it; a key
 * backup is wrapped the same way for its recipient ({@link #wrap}) and, re-wrapped for an import
 * job, unwrapped by a restore ({@link #unwrapBackup}). Both steps are the JDK's own ciphers; every
 * unwrap failure is the same {@link UnwrapFailedException}.
 */
public final class RsaAesKeyWrap {
  /** The ephemeral AES key's length, as the proto and both clouds fix it. */
  static final int EPHEMERAL_KEY_BYTES = 32;

  /** RFC 5649's output for the longest material cipherd imports (64 bytes) is 72 bytes. */
  private static final int MAX_WRAPPED_MATERIAL_BYTES = 72;

  /** RFC 5649's shortest output: one semiblock of material and the integrity semiblock. */
  private static final int MIN_WRAPPED_MATERIAL_BYTES = 16;

  /**
   * The longest wrapped key backup a restore unwraps: 4 MiB, the server's largest request, far
   * above a key of thousands of versions (about 100 bytes each).
   */
  public static final int MAX_WRAPPED_BACKUP_BYTES = 4 << 20;

  private static final OAEPParameterSpec OAEP_SHA256 =
      new OAEPParameterSpec(
          "SHA-256", "MGF1", MGF1ParameterSpec.SHA256, PSource.PSpecified.DEFAULT);

  private RsaAesKeyWrap() {}

  /**
   * The key material {@code blob} wraps for {@code privateKey}; the caller wipes it. Throws {@link
   * UnwrapFailedException}, and nothing else, for any blob that does not unwrap.
   */
  public static byte[] unwrap(RSAPrivateKey privateKey, byte[] blob) {
    return unwrap(privateKey, blob, MAX_WRAPPED_MATERIAL_BYTES);
  }

  /**
   * The serialized key backup {@code blob} wraps for {@code privateKey}, as {@link #unwrap} but up
   * to {@link #MAX_WRAPPED_BACKUP_BYTES}; the caller wipes it.
   */
  public static byte[] unwrapBackup(RSAPrivateKey privateKey, byte[] blob) {
    return unwrap(privateKey, blob, MAX_WRAPPED_BACKUP_BYTES);
  }

  /**
   * {@code plaintext} wrapped for {@code publicKey}: RSA-OAEP-SHA-256 of a fresh AES-256 key, then
   * the RFC 5649 wrap of {@code plaintext} under it, the layout {@link #unwrap} reads. The
   * ephemeral key is wiped before this returns.
   */
  public static byte[] wrap(RSAPublicKey publicKey, byte[] plaintext) {
    byte[] ephemeral = NonceSource.bytes(EPHEMERAL_KEY_BYTES);
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
      rsa.init(Cipher.ENCRYPT_MODE, publicKey, OAEP_SHA256);
      byte[] encryptedKey = rsa.doFinal(ephemeral);
      Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
      kwp.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(ephemeral, "AES"));
      byte[] wrapped = kwp.doFinal(plaintext);
      byte[] blob = Arrays.copyOf(encryptedKey, encryptedKey.length + wrapped.length);
      System.arraycopy(wrapped, 0, blob, encryptedKey.length, wrapped.length);
      return blob;
    } catch (GeneralSecurityException e) {
      throw new CryptoProviderException("RSA-OAEP-SHA-256 and AES/KWP wrapping", e);
    } finally {
      Arrays.fill(ephemeral, (byte) 0);
    }
  }

  private static byte[] unwrap(RSAPrivateKey privateKey, byte[] blob, int maxWrappedBytes) {
    int modulusBytes = (privateKey.getModulus().bitLength() + 7) / 8;
    int wrappedLength = blob.length - modulusBytes;
    if (wrappedLength < MIN_WRAPPED_MATERIAL_BYTES
        || wrappedLength > maxWrappedBytes
        || wrappedLength % 8 != 0) {
      throw new UnwrapFailedException();
    }
    byte[] ephemeral = null;
    try {
      ephemeral = oaepDecrypt(privateKey, Arrays.copyOf(blob, modulusBytes));
      if (ephemeral.length != EPHEMERAL_KEY_BYTES) {
        throw new UnwrapFailedException();
      }
      return kwpUnwrap(ephemeral, Arrays.copyOfRange(blob, modulusBytes, blob.length));
    } finally {
      if (ephemeral != null) {
        Arrays.fill(ephemeral, (byte) 0);
      }
    }
  }

  /** RSA-OAEP decryption, SHA-256 and MGF1-SHA-256, empty label: the blob's first part. */
  static byte[] oaepDecrypt(RSAPrivateKey privateKey, byte[] block) {
    try {
      Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPPadding");
      rsa.init(Cipher.DECRYPT_MODE, privateKey, OAEP_SHA256);
      return rsa.doFinal(block);
    } catch (NoSuchAlgorithmException | NoSuchPaddingException missing) {
      throw new CryptoProviderException("RSA/ECB/OAEPPadding", missing);
    } catch (GeneralSecurityException | IllegalArgumentException refused) {
      throw new UnwrapFailedException();
    }
  }

  /** AES key wrap with padding (RFC 5649) undone under {@code key}: the blob's second part. */
  static byte[] kwpUnwrap(byte[] key, byte[] wrapped) {
    try {
      Cipher kwp = Cipher.getInstance("AES/KWP/NoPadding");
      kwp.init(Cipher.DECRYPT_MODE, new SecretKeySpec(key, "AES"));
      return kwp.doFinal(wrapped);
    } catch (NoSuchAlgorithmException | NoSuchPaddingException missing) {
      throw new CryptoProviderException("AES/KWP/NoPadding", missing);
    } catch (GeneralSecurityException | IllegalArgumentException refused) {
      throw new UnwrapFailedException();
    }
  }
}

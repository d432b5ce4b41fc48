package io.cipherd.server.crypto;

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
 * Encrypts and decrypts envelope payloads ({@code iv ‖ ciphertext ‖ tag}) with ciphers from a
 * {@link CipherSource}. The associated data of AEAD modes is {@code header ‖ context}, passed as
 * two parts so neither is copied. Nothing is allocated here beyond what the JCE allocates, except
 * for xgcm (a derived message key per message) and siv (Tink's API takes and returns whole arrays).
 */
public final class PayloadCipher {
  private final CipherSource source;

  /** Takes each operation's cipher from {@code source}: the pools, or one batch's lease on them. */
  public PayloadCipher(CipherSource source) {
    this.source = source;
  }

  /**
   * Encrypts {@code plaintext[from, from + length)} under a fresh random IV, with {@code header ‖
   * context[contextFrom, contextFrom + contextLength)} bound as associated data for AEAD modes,
   * writing the payload into {@code out} from index 0; returns the payload's length, which is
   * {@code mode.payloadLength(length)}.
   */
  public int encrypt(
      Mode mode,
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext,
      int from,
      int length,
      byte[] out) {
    NonceSource.fill(out, 0, mode.ivLength());
    seal(mode, key, header, context, contextFrom, contextLength, plaintext, from, length, out);
    return mode.payloadLength(length);
  }

  /**
   * Decrypts {@code payload[0, length)} into {@code out} from index 0, which needs {@code length}
   * bytes; returns the plaintext's length. Throws {@link DecryptionFailedException} when the tag,
   * padding or key does not fit. The payload must have passed the envelope's length check: a length
   * the mode cannot produce is a caller's bug, an {@link IllegalArgumentException}.
   */
  public int decrypt(
      Mode mode,
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] payload,
      int length,
      byte[] out) {
    String problem = mode.payloadLengthProblem(length);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    if (mode == Mode.SIV) {
      return openSiv(key, header, context, contextFrom, contextLength, payload, length, out);
    }
    int ivLength = mode.ivLength();
    SecretKey cipherKey = messageKey(mode, key, payload);
    Cipher cipher = source.borrow(mode, cipherKey);
    try {
      cipher.init(Cipher.DECRYPT_MODE, cipherKey, parameters(mode, payload, ivLength));
      addAssociatedData(mode, cipher, header, context, contextFrom, contextLength);
      int written = cipher.doFinal(payload, ivLength, length - ivLength, out, 0);
      source.release(mode, cipherKey, cipher);
      return written;
    } catch (BadPaddingException | IllegalBlockSizeException e) {
      // AEADBadTagException is a BadPaddingException: a wrong tag, key or context.
      source.invalidate(mode, cipher);
      throw new DecryptionFailedException();
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(mode, cipher);
      throw new CryptoProviderException(mode, e);
    }
  }

  /**
   * Encrypts with a caller-chosen IV. Only for known-answer tests: reusing an IV with the same key
   * destroys the confidentiality of GCM and ChaCha20-Poly1305.
   */
  public byte[] encryptWithInsecureIv(
      Mode mode, SecretKey key, byte[] iv, byte[] header, byte[] context, byte[] plaintext) {
    if (iv.length != mode.ivLength()) {
      throw new IllegalArgumentException(
          mode.headerName() + " takes a " + mode.ivLength() + "-byte IV");
    }
    byte[] payload = new byte[mode.payloadLength(plaintext.length)];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    seal(
        mode,
        key,
        header,
        context,
        0,
        context == null ? 0 : context.length,
        plaintext,
        0,
        plaintext.length,
        payload);
    return payload;
  }

  private void seal(
      Mode mode,
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext,
      int from,
      int length,
      byte[] payload) {
    if (mode == Mode.SIV) {
      sealSiv(key, header, context, contextFrom, contextLength, plaintext, from, length, payload);
      return;
    }
    int ivLength = mode.ivLength();
    int expected = mode.payloadLength(length) - ivLength;
    SecretKey cipherKey = messageKey(mode, key, payload);
    Cipher cipher = source.borrow(mode, cipherKey);
    try {
      cipher.init(Cipher.ENCRYPT_MODE, cipherKey, parameters(mode, payload, ivLength));
      addAssociatedData(mode, cipher, header, context, contextFrom, contextLength);
      int written = cipher.doFinal(plaintext, from, length, payload, ivLength);
      if (written != expected) {
        throw new IllegalStateException("cipher wrote " + written + " bytes, expected " + expected);
      }
      source.release(mode, cipherKey, cipher);
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(mode, cipher);
      throw new CryptoProviderException(mode, e);
    }
  }

  /**
   * The key the mode's cipher runs with: for xgcm the message key derived from the version's key
   * and the nonce at the payload's start (with a pooled AES-ECB cipher), for every other mode the
   * key itself.
   */
  private SecretKey messageKey(Mode mode, SecretKey key, byte[] payload) {
    if (mode != Mode.XGCM) {
      return key;
    }
    XaesKey xaes = XaesKey.of(key);
    Cipher ecb = source.borrow(Mode.ECB, xaes.key());
    try {
      SecretKey derived = xaes.messageKey(ecb, payload, 0);
      source.release(Mode.ECB, xaes.key(), ecb);
      return derived;
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(Mode.ECB, ecb);
      throw new CryptoProviderException(Mode.XGCM, e);
    }
  }

  /**
   * AES-SIV: {@code payload = V ‖ C} from one associated-data component, {@code header ‖ context}.
   */
  private static void sealSiv(
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext,
      int from,
      int length,
      byte[] payload) {
    byte[] input = Arrays.copyOfRange(plaintext, from, from + length);
    try {
      byte[] sealed =
          SivKey.of(key)
              .siv()
              .encryptDeterministically(
                  input, associatedData(header, context, contextFrom, contextLength));
      System.arraycopy(sealed, 0, payload, 0, sealed.length);
    } catch (GeneralSecurityException | RuntimeException e) {
      throw new CryptoProviderException(Mode.SIV, e);
    } finally {
      Arrays.fill(input, (byte) 0);
    }
  }

  private static int openSiv(
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] payload,
      int length,
      byte[] out) {
    byte[] opened;
    try {
      opened =
          SivKey.of(key)
              .siv()
              .decryptDeterministically(
                  Arrays.copyOf(payload, length),
                  associatedData(header, context, contextFrom, contextLength));
    } catch (GeneralSecurityException e) {
      // Tink throws AEADBadTagException (a GeneralSecurityException) for a wrong tag, key or
      // context.
      throw new DecryptionFailedException();
    } catch (RuntimeException e) {
      throw new CryptoProviderException(Mode.SIV, e);
    }
    System.arraycopy(opened, 0, out, 0, opened.length);
    Arrays.fill(opened, (byte) 0);
    return opened.length;
  }

  private static byte[] associatedData(
      byte[] header, byte[] context, int contextFrom, int contextLength) {
    int headerLength = header == null ? 0 : header.length;
    byte[] ad = new byte[headerLength + contextLength];
    if (headerLength > 0) {
      System.arraycopy(header, 0, ad, 0, headerLength);
    }
    if (contextLength > 0) {
      System.arraycopy(context, contextFrom, ad, headerLength, contextLength);
    }
    return ad;
  }

  private static void addAssociatedData(
      Mode mode, Cipher cipher, byte[] header, byte[] context, int contextFrom, int contextLength) {
    if (!mode.isAead()) {
      return;
    }
    if (header != null && header.length > 0) {
      cipher.updateAAD(header);
    }
    if (contextLength > 0) {
      cipher.updateAAD(context, contextFrom, contextLength);
    }
  }

  private static AlgorithmParameterSpec parameters(Mode mode, byte[] payload, int ivLength) {
    return switch (mode) {
      case GCM -> new GCMParameterSpec(mode.tagLength() * 8, payload, 0, ivLength);
      // XAES: the first 12 nonce bytes derived the key; the last 12 are the GCM nonce.
      case XGCM ->
          new GCMParameterSpec(
              mode.tagLength() * 8,
              payload,
              XaesKey.DERIVING_NONCE_BYTES,
              ivLength - XaesKey.DERIVING_NONCE_BYTES);
      case ECB -> null;
      default -> new IvParameterSpec(payload, 0, ivLength);
    };
  }
}

package io.cipherd.server.crypto;

import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * Encrypts and decrypts envelope payloads ({@code iv ‖ ciphertext ‖ tag}) with pooled ciphers. The
 * associated data of AEAD modes is {@code header ‖ context}, passed as two parts so neither is copied.
 */
public final class PayloadCipher {
  private static final byte[] EMPTY = new byte[0];

  private final CipherPools pools;
  /** Where each operation gets its cipher: the pools themselves, or a batch's lease on them. */
  private final CipherSource source;

  public PayloadCipher(CipherPools pools) {
    this(pools, pools);
  }

  private PayloadCipher(CipherPools pools, CipherSource source) {
    this.pools = pools;
    this.source = source;
  }

  /** A lease on the pools for one batch, to pass to {@link #using}. */
  public CipherLease lease() {
    return new CipherLease(pools);
  }

  /** This cipher taking its ciphers from {@code lease} instead of from the pools directly. */
  public PayloadCipher using(CipherLease lease) {
    return new PayloadCipher(pools, lease);
  }

  /** Encrypts {@code plaintext} for {@code header}'s mode under a fresh random IV; returns the payload. */
  public byte[] encrypt(EnvelopeHeader header, SecretKey key, byte[] context, byte[] plaintext) {
    return encrypt(header.mode(), key, header.aad(), context, plaintext);
  }

  /**
   * Encrypts {@code plaintext[from, from + length)} for {@code header}'s mode under a fresh random
   * IV, with {@code context[contextFrom, contextFrom + contextLength)} bound as associated data,
   * writing the payload into {@code out} from index 0; returns the payload's length, which is
   * {@code mode.payloadLength(length)}. Nothing is allocated here beyond what the JCE allocates.
   */
  public int encrypt(EnvelopeHeader header, SecretKey key, byte[] context, int contextFrom, int contextLength,
      byte[] plaintext, int from, int length, byte[] out) {
    Mode mode = header.mode();
    int payloadLength = mode.payloadLength(length);
    NonceSource.fill(out, 0, mode.ivLength());
    seal(mode, key, header.aad(), context, contextFrom, contextLength, plaintext, from, length, out);
    return payloadLength;
  }

  /** Decrypts {@code envelope} with the key its header names. */
  public byte[] decrypt(Envelope envelope, SecretKey key, byte[] context) {
    EnvelopeHeader header = envelope.header();
    return decrypt(header.mode(), key, header.aad(), context, envelope.payload());
  }

  /**
   * Decrypts {@code payload[0, length)} of {@code header}'s mode into {@code out} from index 0,
   * which needs {@code length} bytes; returns the plaintext's length. Throws as {@link #decrypt(Mode,
   * SecretKey, byte[], byte[], byte[])} does.
   */
  public int decrypt(EnvelopeHeader header, SecretKey key, byte[] context, int contextFrom, int contextLength,
      byte[] payload, int length, byte[] out) {
    return open(header.mode(), key, header.aad(), context, contextFrom, contextLength, payload, length, out);
  }

  /**
   * Encrypts {@code plaintext} under a fresh random IV, with {@code header ‖ context} as associated
   * data for AEAD modes; returns the payload.
   */
  public byte[] encrypt(Mode mode, SecretKey key, byte[] header, byte[] context, byte[] plaintext) {
    byte[] payload = new byte[mode.payloadLength(plaintext.length)];
    NonceSource.fill(payload, 0, mode.ivLength());
    seal(mode, key, header, context, 0, lengthOf(context), plaintext, 0, plaintext.length, payload);
    return payload;
  }

  /**
   * Encrypts with a caller-chosen IV. Only for known-answer tests: reusing an IV with the same key
   * destroys the confidentiality of GCM and ChaCha20-Poly1305.
   */
  static byte[] encryptWithInsecureIv(
      Mode mode, SecretKey key, byte[] iv, byte[] header, byte[] context, byte[] plaintext, CipherPools pools) {
    if (iv.length != mode.ivLength()) {
      throw new IllegalArgumentException(mode.headerName() + " takes a " + mode.ivLength() + "-byte IV");
    }
    byte[] payload = new byte[mode.payloadLength(plaintext.length)];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    new PayloadCipher(pools).seal(mode, key, header, context, 0, lengthOf(context), plaintext, 0, plaintext.length, payload);
    return payload;
  }

  /**
   * Decrypts a payload; throws {@link DecryptionFailedException} when the tag, padding or key does
   * not fit, and {@link InvalidCiphertextException} when its length cannot be the mode's.
   */
  public byte[] decrypt(Mode mode, SecretKey key, byte[] header, byte[] context, byte[] payload) {
    String problem = mode.payloadLengthProblem(payload.length);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    // Exact for every mode but the padded ones, whose length is known only once unpadded.
    byte[] plaintext = new byte[mode.isPadded() ? payload.length : payload.length - mode.ivLength() - mode.tagLength()];
    int length = open(mode, key, header, context, 0, lengthOf(context), payload, payload.length, plaintext);
    if (length == plaintext.length) {
      return plaintext;
    }
    byte[] exact = java.util.Arrays.copyOf(plaintext, length);
    java.util.Arrays.fill(plaintext, (byte) 0);
    return exact;
  }

  private int open(Mode mode, SecretKey key, byte[] header, byte[] context, int contextFrom, int contextLength,
      byte[] payload, int length, byte[] out) {
    String problem = mode.payloadLengthProblem(length);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    int ivLength = mode.ivLength();
    Cipher cipher = source.borrow(mode, key);
    try {
      cipher.init(Cipher.DECRYPT_MODE, key, parameters(mode, payload, ivLength));
      addAssociatedData(mode, cipher, header, context, contextFrom, contextLength);
      int written = cipher.doFinal(payload, ivLength, length - ivLength, out, 0);
      source.release(mode, key, cipher);
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

  private void seal(Mode mode, SecretKey key, byte[] header, byte[] context, int contextFrom, int contextLength,
      byte[] plaintext, int from, int length, byte[] payload) {
    int ivLength = mode.ivLength();
    int expected = mode.payloadLength(length) - ivLength;
    Cipher cipher = source.borrow(mode, key);
    try {
      cipher.init(Cipher.ENCRYPT_MODE, key, parameters(mode, payload, ivLength));
      addAssociatedData(mode, cipher, header, context, contextFrom, contextLength);
      int written = cipher.doFinal(plaintext, from, length, payload, ivLength);
      if (written != expected) {
        throw new IllegalStateException("cipher wrote " + written + " bytes, expected " + expected);
      }
      source.release(mode, key, cipher);
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(mode, cipher);
      throw new CryptoProviderException(mode, e);
    }
  }

  private static void addAssociatedData(
      Mode mode, Cipher cipher, byte[] header, byte[] context, int contextFrom, int contextLength) {
    if (!mode.isAead()) {
      return;
    }
    cipher.updateAAD(header == null ? EMPTY : header);
    if (contextLength > 0) {
      cipher.updateAAD(context, contextFrom, contextLength);
    }
  }

  private static int lengthOf(byte[] context) {
    return context == null ? 0 : context.length;
  }

  private static AlgorithmParameterSpec parameters(Mode mode, byte[] payload, int ivLength) {
    return switch (mode) {
      case GCM -> new GCMParameterSpec(mode.tagLength() * 8, payload, 0, ivLength);
      case ECB -> null;
      default -> new IvParameterSpec(payload, 0, ivLength);
    };
  }
}

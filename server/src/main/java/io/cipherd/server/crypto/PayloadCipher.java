package io.cipherd.server.crypto;

import javax.crypto.SecretKey;

/**
 * Encrypts and decrypts envelope payloads with ciphers from a {@link CipherSource}: draws the
 * random IV, checks the payload's length, and leaves the rest to the mode's {@link ModeFamily}. The
 * associated data of AEAD modes is {@code header ‖ context}, passed as two parts so neither is
 * copied. Nothing is allocated here beyond what the family allocates.
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
      CipherMode mode,
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext,
      int from,
      int length,
      byte[] out) {
    ModeFamily family = mode.family();
    NonceSource.fill(out, 0, family.ivLength());
    family.seal(
        source, key, header, context, contextFrom, contextLength, plaintext, from, length, out);
    return family.payloadLength(length);
  }

  /**
   * Decrypts {@code payload[0, length)} into {@code out} from index 0, which needs {@code length}
   * bytes; returns the plaintext's length. Throws {@link DecryptionFailedException} when the tag,
   * padding or key does not fit. The payload must have passed the envelope's length check: a length
   * the mode cannot produce is a caller's bug, an {@link IllegalArgumentException}.
   */
  public int decrypt(
      CipherMode mode,
      SecretKey key,
      byte[] header,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] payload,
      int length,
      byte[] out) {
    ModeFamily family = mode.family();
    String problem = family.payloadLengthProblem(length);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return family.open(
        source, key, header, context, contextFrom, contextLength, payload, length, out);
  }

  /**
   * Encrypts with a caller-chosen IV. Only for known-answer tests: reusing an IV with the same key
   * destroys the confidentiality of GCM and ChaCha20-Poly1305.
   */
  public byte[] encryptWithInsecureIv(
      CipherMode mode, SecretKey key, byte[] iv, byte[] header, byte[] context, byte[] plaintext) {
    ModeFamily family = mode.family();
    if (iv.length != family.ivLength()) {
      throw new IllegalArgumentException(
          mode.headerName() + " takes a " + family.ivLength() + "-byte IV");
    }
    byte[] payload = new byte[family.payloadLength(plaintext.length)];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    int contextLength = context == null ? 0 : context.length;
    family.seal(
        source, key, header, context, 0, contextLength, plaintext, 0, plaintext.length, payload);
    return payload;
  }
}

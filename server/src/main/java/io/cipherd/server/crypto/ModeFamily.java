package io.cipherd.server.crypto;

import java.util.Set;
import javax.crypto.SecretKey;

/**
 * One family of cipher modes, as Tink has a class family per primitive: its class owns the payload
 * layout ({@code iv ‖ body ‖ tag}, with the IV and tag lengths and padding of each member), the key
 * sizes and preparation, and sealing and opening. Each {@link CipherMode} is one instance, built
 * with its own parameters. {@link #seal} draws the random IV and {@link #open} checks the payload's
 * length before the member's own work.
 *
 * <p>{@link #seal} and {@link #open} work in the caller's arrays ({@link Bytes} slices of them) and
 * allocate nothing beyond what their provider does. The associated data of authenticating modes is
 * {@code header ‖ context}, passed as two parts so neither is copied.
 */
public abstract class ModeFamily {
  /** Bytes of tag of the modes that authenticate nothing. */
  static final int NO_TAG = 0;

  /** Bytes of IV of the modes that take none. */
  static final int NO_IV = 0;

  /** A body PKCS#7-padded to whole AES blocks. */
  static final boolean PADDED = true;

  /** A body as long as the plaintext. */
  static final boolean UNPADDED = false;

  private static final int AES_BLOCK = 16;

  private final CipherMode mode;
  private final int ivLength;
  private final int tagLength;
  private final boolean padded;

  /**
   * A member with {@code ivLength} bytes of IV first and {@code tagLength} bytes of tag; {@code
   * padded} if its body is PKCS#7-padded to whole AES blocks.
   */
  ModeFamily(CipherMode mode, int ivLength, int tagLength, boolean padded) {
    this.mode = mode;
    this.ivLength = ivLength;
    this.tagLength = tagLength;
    this.padded = padded;
  }

  /** The mode this instance implements. */
  final CipherMode mode() {
    return mode;
  }

  final int ivLength() {
    return ivLength;
  }

  final int tagLength() {
    return tagLength;
  }

  final boolean isPadded() {
    return padded;
  }

  /** The JCE transformation of the mode's pooled ciphers, or null if it borrows none. */
  abstract String transformation();

  /** The JCE key algorithm of the mode's keys. */
  abstract String keyAlgorithm();

  /** The key sizes the mode takes, in bits. */
  abstract Set<Integer> keySizesBits();

  /** Messages one key version may seal before random nonces risk repeating; 0 for no limit. */
  long encryptionLimit() {
    return 0;
  }

  /** {@code key} with what the mode derives once per version; as it is unless overridden. */
  SecretKey prepare(SecretKey key) {
    return key;
  }

  /**
   * Seals {@code plaintext} under a fresh random IV into {@code out} from index 0, binding {@code
   * header ‖ context} if the mode authenticates; returns the payload's length, {@link
   * #payloadLength} of the plaintext's. {@code out} needs that many bytes. The cipher comes from
   * {@code source}: the pools, or one batch's lease on them.
   */
  public final int seal(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] out) {
    NonceSource.fill(out, 0, ivLength);
    sealPayload(source, key, header, context, plaintext, out);
    return payloadLength(plaintext.length());
  }

  /**
   * Opens {@code payload} into {@code out} from index 0, which needs {@code payload.length()}
   * bytes; returns the plaintext's length. Throws {@link DecryptionFailedException} when the tag,
   * padding or key does not fit. The payload must have passed the envelope's length check: a length
   * the mode cannot produce is a caller's bug, an {@link IllegalArgumentException}.
   */
  public final int open(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out) {
    String problem = payloadLengthProblem(payload.length());
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    return openPayload(source, key, header, context, payload, out);
  }

  /**
   * Seals with a caller-chosen IV. Only for known-answer tests: reusing an IV with the same key
   * destroys the confidentiality of GCM and ChaCha20-Poly1305.
   */
  public final byte[] sealWithInsecureIv(
      CipherSource source,
      SecretKey key,
      byte[] iv,
      byte[] header,
      byte[] context,
      byte[] plaintext) {
    if (iv.length != ivLength) {
      throw new IllegalArgumentException(mode.headerName() + " takes a " + ivLength + "-byte IV");
    }
    byte[] payload = new byte[payloadLength(plaintext.length)];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    sealPayload(source, key, header, Bytes.of(context), Bytes.of(plaintext), payload);
    return payload;
  }

  /**
   * Seals {@code plaintext} into {@code payload}, whose first {@link #ivLength} bytes already hold
   * the IV, binding {@code header ‖ context} if the mode authenticates. Writes exactly {@link
   * #payloadLength(int)} bytes from index 0.
   */
  abstract void sealPayload(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] payload);

  /**
   * Opens {@code payload}, whose length has passed {@link #payloadLengthProblem}, into {@code out}
   * from index 0; returns the plaintext's length.
   */
  abstract int openPayload(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out);

  /** Length of the payload for a plaintext of {@code plaintextLength} bytes. */
  public final int payloadLength(int plaintextLength) {
    int body = padded ? (plaintextLength / AES_BLOCK + 1) * AES_BLOCK : plaintextLength;
    return ivLength + body + tagLength;
  }

  /** Why a payload of {@code length} bytes cannot be this mode's, or null if it is plausible. */
  public final String payloadLengthProblem(int length) {
    int body = length - ivLength - tagLength;
    if (body < 0) {
      return "payload is "
          + length
          + " bytes, shorter than the "
          + (ivLength + tagLength)
          + " bytes of IV and tag that "
          + mode.headerName()
          + " needs";
    }
    if (padded && (body == 0 || body % AES_BLOCK != 0)) {
      return "payload of "
          + mode.headerName()
          + " must hold whole 16-byte blocks after the IV, got "
          + body
          + " bytes";
    }
    return null;
  }
}

package io.cipherd.server.crypto;

import javax.crypto.SecretKey;

/**
 * One family of cipher modes, as Tink has a primitive class per algorithm family: its class owns
 * key preparation, sealing and opening, in the payload layout ({@code iv ‖ body ‖ tag}) its {@link
 * CipherMode}'s parameters give. Each mode holds one instance, built with the mode. {@link #seal}
 * draws the random IV and {@link #open} checks the payload's length before the member's own work.
 *
 * <p>{@link #seal} and {@link #open} work in the caller's arrays ({@link Bytes} slices of them) and
 * allocate nothing beyond what their provider does. The associated data of authenticating modes is
 * {@code header ‖ context}, passed as two parts so neither is copied.
 */
public abstract class ModeFamily {
  private final CipherMode mode;

  /** The family object of {@code mode}, whose constant gives the IV and tag lengths and padding. */
  ModeFamily(CipherMode mode) {
    this.mode = mode;
  }

  /** The mode this instance implements. */
  final CipherMode mode() {
    return mode;
  }

  /**
   * A key version's bytes ready for this mode, precomputing what the mode derives once per version
   * (xgcm's subkey, siv's CMAC subkeys); other modes use {@code key} as it is.
   */
  public SecretKey prepare(SecretKey key) {
    return key;
  }

  /**
   * Seals {@code plaintext} under a fresh random IV into {@code out} from index 0, binding {@code
   * header ‖ context} if the mode authenticates; returns the payload's length, {@code
   * mode.payloadLength} of the plaintext's. {@code out} needs that many bytes. The cipher comes
   * from {@code source}: the pools, or one batch's lease on them.
   */
  public final int seal(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] out) {
    NonceSource.fill(out, 0, mode.ivLength());
    sealPayload(source, key, header, context, plaintext, out);
    return mode.payloadLength(plaintext.length());
  }

  /**
   * Opens {@code payload} into {@code out} from index 0, which needs {@code payload.length()}
   * bytes, or for a mode without padding exactly {@link CipherMode#plaintextLength}; returns the
   * plaintext's length. Throws {@link DecryptionFailedException} when the tag, padding or key does
   * not fit. The payload must have passed the envelope's length check: a length the mode cannot
   * produce is a caller's bug, an {@link IllegalArgumentException}.
   */
  public final int open(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out) {
    String problem = mode.payloadLengthProblem(payload.length());
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
    if (iv.length != mode.ivLength()) {
      throw new IllegalArgumentException(
          mode.headerName() + " takes a " + mode.ivLength() + "-byte IV");
    }
    byte[] payload = new byte[mode.payloadLength(plaintext.length)];
    System.arraycopy(iv, 0, payload, 0, iv.length);
    sealPayload(source, key, header, Bytes.of(context), Bytes.of(plaintext), payload);
    return payload;
  }

  /**
   * Seals {@code plaintext} into {@code payload}, whose first {@code mode.ivLength()} bytes already
   * hold the IV, binding {@code header ‖ context} if the mode authenticates. Writes exactly {@code
   * mode.payloadLength} bytes from index 0.
   */
  abstract void sealPayload(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] payload);

  /**
   * Opens {@code payload}, whose length has passed {@code mode.payloadLengthProblem}, into {@code
   * out} from index 0; returns the plaintext's length.
   */
  abstract int openPayload(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out);
}

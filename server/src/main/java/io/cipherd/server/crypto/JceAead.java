package io.cipherd.server.crypto;

import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The AEAD modes of the JCE: {@code nonce ‖ ciphertext ‖ tag}, a 12-byte random nonce and a 16-byte
 * tag, with {@code header ‖ context} as associated data. Random 96-bit nonces may repeat past 2³²
 * messages under one key, so their {@link CipherMode}s let a version seal at most {@value
 * #RANDOM_96_BIT_NONCE_LIMIT} by default.
 */
final class JceAead extends JceFamily {
  /**
   * Random 96-bit nonces collide with probability about n²/2⁹⁷ after n messages; NIST SP 800-38D
   * caps random-IV GCM at 2³² messages per key. 2³⁰ keeps the chance below 2⁻³⁷, with room for the
   * lag of merged counts.
   */
  static final long RANDOM_96_BIT_NONCE_LIMIT = 1L << 30;

  private final IvParameters parameters;

  private JceAead(CipherMode mode, IvParameters parameters) {
    super(mode);
    this.parameters = parameters;
  }

  /** AES-GCM: the nonce in a {@code GCMParameterSpec} with the mode's tag length. */
  static JceAead aesGcm(CipherMode mode) {
    int tagBits = mode.tagLength() * 8;
    int nonceLength = mode.ivLength();
    return new JceAead(
        mode, (payload, offset) -> new GCMParameterSpec(tagBits, payload, offset, nonceLength));
  }

  /** ChaCha20-Poly1305: the nonce in an {@code IvParameterSpec}. */
  static JceAead chaCha20Poly1305(CipherMode mode) {
    int nonceLength = mode.ivLength();
    return new JceAead(
        mode, (payload, offset) -> new IvParameterSpec(payload, offset, nonceLength));
  }

  @Override
  AlgorithmParameterSpec parameters(byte[] payload, int offset) {
    return parameters.at(payload, offset);
  }

  /** The cipher's parameters for the nonce at {@code payload[offset]}. */
  @FunctionalInterface
  private interface IvParameters {
    AlgorithmParameterSpec at(byte[] payload, int offset);
  }
}

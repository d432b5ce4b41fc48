package io.cipherd.server.crypto;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Set;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The AEAD modes of the JCE: {@code nonce ‖ ciphertext ‖ tag}, a 12-byte random nonce and a 16-byte
 * tag, with {@code header ‖ context} as associated data. Random 96-bit nonces may repeat past 2³²
 * messages under one key, so a version seals at most {@value #RANDOM_96_BIT_NONCE_LIMIT} by
 * default.
 */
final class JceAead extends JceFamily {
  /**
   * Random 96-bit nonces collide with probability about n²/2⁹⁷ after n messages; NIST SP 800-38D
   * caps random-IV GCM at 2³² messages per key. 2³⁰ keeps the chance below 2⁻³⁷, with room for the
   * lag of merged counts.
   */
  static final long RANDOM_96_BIT_NONCE_LIMIT = 1L << 30;

  private static final int NONCE_BYTES = 12;
  private static final int TAG_BYTES = 16;
  private static final Set<Integer> AES_KEY_SIZES = Set.of(128, 192, 256);
  private static final Set<Integer> CHACHA_KEY_SIZES = Set.of(256);

  private final String keyAlgorithm;
  private final Set<Integer> keySizesBits;
  private final IvParameters parameters;

  private JceAead(
      CipherMode mode,
      String transformation,
      String keyAlgorithm,
      Set<Integer> keySizesBits,
      IvParameters parameters) {
    super(mode, transformation, NONCE_BYTES, TAG_BYTES, UNPADDED);
    this.keyAlgorithm = keyAlgorithm;
    this.keySizesBits = keySizesBits;
    this.parameters = parameters;
  }

  /** AES-GCM with 128-, 192- or 256-bit keys. */
  static JceAead aesGcm(CipherMode mode) {
    return new JceAead(
        mode,
        "AES/GCM/NoPadding",
        "AES",
        AES_KEY_SIZES,
        (payload, offset) -> new GCMParameterSpec(TAG_BYTES * 8, payload, offset, NONCE_BYTES));
  }

  /** ChaCha20-Poly1305 with 256-bit keys. */
  static JceAead chaCha20Poly1305(CipherMode mode) {
    return new JceAead(
        mode,
        "ChaCha20-Poly1305",
        "ChaCha20",
        CHACHA_KEY_SIZES,
        (payload, offset) -> new IvParameterSpec(payload, offset, NONCE_BYTES));
  }

  @Override
  String keyAlgorithm() {
    return keyAlgorithm;
  }

  @Override
  Set<Integer> keySizesBits() {
    return keySizesBits;
  }

  @Override
  long encryptionLimit() {
    return RANDOM_96_BIT_NONCE_LIMIT;
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

package io.cipherd.server.crypto;

import java.security.spec.AlgorithmParameterSpec;
import java.util.Set;
import javax.crypto.spec.IvParameterSpec;

/**
 * The unauthenticated AES modes of the JCE: {@code iv ‖ ciphertext}, a 16-byte random IV (none for
 * ecb) and no tag; cbc and ecb pad the plaintext to whole blocks (PKCS#7). They bind no context,
 * and a changed ciphertext decrypts to changed plaintext, so keys in them are made only when the
 * caller allows unauthenticated modes.
 */
final class JceUnauthenticated extends JceFamily {
  private static final int IV_BYTES = 16;
  private static final Set<Integer> AES_KEY_SIZES = Set.of(128, 192, 256);

  private JceUnauthenticated(CipherMode mode, String transformation, int ivLength, boolean padded) {
    super(mode, transformation, ivLength, NO_TAG, padded);
  }

  static JceUnauthenticated cbc(CipherMode mode) {
    return new JceUnauthenticated(mode, "AES/CBC/PKCS5Padding", IV_BYTES, PADDED);
  }

  static JceUnauthenticated ctr(CipherMode mode) {
    return new JceUnauthenticated(mode, "AES/CTR/NoPadding", IV_BYTES, UNPADDED);
  }

  /** AES-CFB with 128-bit feedback. */
  static JceUnauthenticated cfb(CipherMode mode) {
    return new JceUnauthenticated(mode, "AES/CFB/NoPadding", IV_BYTES, UNPADDED);
  }

  static JceUnauthenticated ofb(CipherMode mode) {
    return new JceUnauthenticated(mode, "AES/OFB/NoPadding", IV_BYTES, UNPADDED);
  }

  /** AES-ECB: no IV, so equal blocks encrypt equally; the key's policy must allow encrypting. */
  static JceUnauthenticated ecb(CipherMode mode) {
    return new JceUnauthenticated(mode, "AES/ECB/PKCS5Padding", NO_IV, PADDED);
  }

  @Override
  String keyAlgorithm() {
    return "AES";
  }

  @Override
  Set<Integer> keySizesBits() {
    return AES_KEY_SIZES;
  }

  @Override
  AlgorithmParameterSpec parameters(byte[] payload, int offset) {
    return ivLength() == NO_IV ? null : new IvParameterSpec(payload, offset, ivLength());
  }
}

package io.cipherd.server.crypto;

import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.spec.IvParameterSpec;

/**
 * The unauthenticated AES modes of the JCE: {@code iv ‖ ciphertext}, a 16-byte random IV (none for
 * ecb) and no tag; cbc and ecb pad the plaintext to whole blocks (PKCS#7). They bind no context,
 * and a changed ciphertext decrypts to changed plaintext, so keys in them are made only when the
 * caller allows unauthenticated modes.
 */
final class JceUnauthenticated extends JceFamily {
  JceUnauthenticated(CipherMode mode) {
    super(mode);
  }

  @Override
  AlgorithmParameterSpec parameters(byte[] payload, int offset) {
    int ivLength = mode().ivLength();
    return ivLength == 0 ? null : new IvParameterSpec(payload, offset, ivLength);
  }
}

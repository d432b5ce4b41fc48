package io.cipherd.server.crypto;

import java.security.GeneralSecurityException;
import java.security.spec.AlgorithmParameterSpec;
import javax.crypto.BadPaddingException;
import javax.crypto.Cipher;
import javax.crypto.IllegalBlockSizeException;
import javax.crypto.SecretKey;

/**
 * The families whose modes a pooled JCE {@link Cipher} runs whole: borrow one of the mode's
 * ciphers, initialise it with the key and the payload's IV, bind the associated data if the mode
 * authenticates, {@code doFinal}, give it back. A member says which IV parameters it takes and, for
 * xgcm, which key the cipher runs with.
 */
abstract class JceFamily extends ModeFamily {
  private final String transformation;

  JceFamily(CipherMode mode) {
    super(mode);
    this.transformation = mode.transformation();
  }

  /**
   * The cipher's parameters for the IV at {@code payload[offset]}, where the payload starts; null
   * if it takes none.
   */
  abstract AlgorithmParameterSpec parameters(byte[] payload, int offset);

  /**
   * The key the cipher runs with for the message whose payload starts at {@code payload[offset]}:
   * the version's key, unless the mode derives one per message.
   */
  SecretKey messageKey(CipherSource source, SecretKey key, byte[] payload, int offset) {
    return key;
  }

  @Override
  final void sealPayload(
      CipherSource source,
      SecretKey key,
      byte[] header,
      Bytes context,
      Bytes plaintext,
      byte[] payload) {
    int ivLength = mode().ivLength();
    int expected = mode().payloadLength(plaintext.length()) - ivLength;
    SecretKey cipherKey = messageKey(source, key, payload, 0);
    Cipher cipher = source.borrow(mode(), cipherKey);
    try {
      cipher.init(Cipher.ENCRYPT_MODE, cipherKey, parameters(payload, 0));
      bind(cipher, header, context);
      int written =
          cipher.doFinal(
              plaintext.array(), plaintext.offset(), plaintext.length(), payload, ivLength);
      if (written != expected) {
        throw new IllegalStateException("cipher wrote " + written + " bytes, expected " + expected);
      }
      source.release(mode(), cipherKey, cipher);
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(mode(), cipher);
      throw new CryptoProviderException(transformation, e);
    }
  }

  @Override
  final int openPayload(
      CipherSource source, SecretKey key, byte[] header, Bytes context, Bytes payload, byte[] out) {
    int ivLength = mode().ivLength();
    byte[] array = payload.array();
    int offset = payload.offset();
    SecretKey cipherKey = messageKey(source, key, array, offset);
    Cipher cipher = source.borrow(mode(), cipherKey);
    try {
      cipher.init(Cipher.DECRYPT_MODE, cipherKey, parameters(array, offset));
      bind(cipher, header, context);
      int written = cipher.doFinal(array, offset + ivLength, payload.length() - ivLength, out, 0);
      source.release(mode(), cipherKey, cipher);
      return written;
    } catch (BadPaddingException | IllegalBlockSizeException e) {
      // AEADBadTagException is a BadPaddingException: a wrong tag, key or context.
      source.invalidate(mode(), cipher);
      throw new DecryptionFailedException();
    } catch (GeneralSecurityException | RuntimeException e) {
      source.invalidate(mode(), cipher);
      throw new CryptoProviderException(transformation, e);
    }
  }

  /** Binds {@code header ‖ context} as associated data, if the mode authenticates. */
  private void bind(Cipher cipher, byte[] header, Bytes context) {
    if (!mode().isAead()) {
      return;
    }
    if (header != null && header.length > 0) {
      cipher.updateAAD(header);
    }
    if (context.length() > 0) {
      cipher.updateAAD(context.array(), context.offset(), context.length());
    }
  }
}

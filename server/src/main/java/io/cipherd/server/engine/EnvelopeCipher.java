package io.cipherd.server.engine;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.UsableKey;

/**
 * Ciphertexts in and out with the key versions the cache resolves: parses and decodes envelopes,
 * encrypts into one and decrypts out of one, and reports each step to the {@link CryptoObserver}.
 * Authorization is the caller's, done before any of these run. Works in the caller's arrays: the
 * only allocation is the ciphertext text an encryption returns.
 */
final class EnvelopeCipher {
  private final KeyCache keys;
  private final EncryptionKeys encryptionKeys;
  private final PayloadCipher cipher;
  private final CryptoObserver observer;

  EnvelopeCipher(
      KeyCache keys, EncryptionKeys encryptionKeys, PayloadCipher cipher, CryptoObserver observer) {
    this.keys = keys;
    this.encryptionKeys = encryptionKeys;
    this.cipher = cipher;
    this.observer = observer;
  }

  /** Forgets the key version encryptions used last, so the next one asks the key cache. */
  void forgetKeys() {
    encryptionKeys.forget();
  }

  /**
   * Encrypts {@code plaintext[from, from + length)} with the key's current version, or {@code
   * keyVersion} if not 0, bound to {@code context[contextFrom, contextFrom + contextLength)}; the
   * payload is written into {@code buffers}, the ciphertext into one array of its exact size.
   */
  Encrypted encrypt(
      String keyName,
      int keyVersion,
      byte[] plaintext,
      int from,
      int length,
      byte[] context,
      int contextFrom,
      int contextLength,
      WorkBuffers buffers) {
    EnvelopeHeader resolved = null;
    UsableKey key = null;
    boolean made = false;
    try {
      key = encryptionKeys.forEncryption(keyName, keyVersion);
      resolved = key.header();
      checkContext(resolved, contextLength);
      byte[] payload = buffers.payload(resolved.mode().payloadLength(length));
      int payloadLength =
          cipher.encrypt(
              resolved.mode(),
              key.secret(),
              resolved.asciiBytes(),
              context,
              contextFrom,
              contextLength,
              plaintext,
              from,
              length,
              payload);
      Encrypted encrypted =
          new Encrypted(
              resolved,
              UnsafeByteOperations.unsafeWrap(Envelope.text(resolved, payload, payloadLength)));
      made = true;
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, length);
      return encrypted;
    } catch (RuntimeException e) {
      if (key != null && !made) {
        // Reserved against the cap, but no ciphertext left here: it counts no more.
        encryptionKeys.unused(key);
      }
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /**
   * Decrypts {@code payload[0, payloadLength)} of a ciphertext whose header is {@code header}, with
   * {@code context[contextFrom, contextFrom + contextLength)}, into {@code plaintext} (which needs
   * {@code payloadLength} bytes); returns the plaintext's length.
   */
  int decrypt(
      EnvelopeHeader header,
      byte[] payload,
      int payloadLength,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keys.forDecryption(header);
      resolved = key.header();
      checkContext(resolved, contextLength);
      int length =
          cipher.decrypt(
              resolved.mode(),
              key.secret(),
              resolved.asciiBytes(),
              context,
              contextFrom,
              contextLength,
              payload,
              payloadLength,
              plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return length;
    } catch (RuntimeException e) {
      // Only a header whose key version exists is reported: a made-up name must not become a label.
      if (resolved == null && VersionRefusals.foundVersion(e)) {
        observer.refused(CryptoOperation.DECRYPT, header, e);
      } else {
        observer.failed(CryptoOperation.DECRYPT, resolved, e);
      }
      throw e;
    }
  }

  /**
   * Parses the header of the ciphertext {@code text[0, length)}; one that does not parse counts as
   * a failed decryption.
   */
  EnvelopeHeader parseHeader(byte[] text, int length) {
    try {
      return Envelope.parseHeader(text, 0, length);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  /**
   * Decodes the payload of {@code text[0, length)} into {@code payload}; as {@link #parseHeader}
   * for failures.
   */
  int decodePayload(EnvelopeHeader header, byte[] text, int length, byte[] payload) {
    try {
      return Envelope.decodePayload(header, text, 0, length, payload);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  private static void checkContext(EnvelopeHeader header, int contextLength) {
    if (contextLength > 0 && !header.mode().isAead()) {
      throw new InvalidArgumentException(
          "context is only bound by AEAD modes; key '"
              + header.keyName()
              + "' version "
              + header.version()
              + " is "
              + header.mode().headerName());
    }
  }
}

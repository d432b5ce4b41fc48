package io.cipherd.server.crypto;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.envelope.InvalidCiphertextException;
import io.cipherd.server.crypto.envelope.ParsedEnvelope;
import io.cipherd.server.pool.CipherPools;
import java.util.Arrays;
import javax.crypto.SecretKey;

/**
 * A {@link ModeFamily}'s seal and open over whole arrays, for tests: each call allocates its
 * result, as the server's hot path (which works in reused buffers) never does.
 */
public final class ArrayPayloadCipher {
  private final CipherSource source;

  public ArrayPayloadCipher(CipherSource source) {
    this.source = source;
  }

  /**
   * Encrypts {@code plaintext} for {@code header}'s mode under a fresh random IV; returns the
   * payload.
   */
  public byte[] encrypt(EnvelopeHeader header, SecretKey key, byte[] context, byte[] plaintext) {
    return encrypt(header.mode(), key, header.asciiBytes(), context, plaintext);
  }

  /** Decrypts {@code envelope} with the key its header names. */
  public byte[] decrypt(ParsedEnvelope envelope, SecretKey key, byte[] context) {
    EnvelopeHeader header = envelope.header();
    return decrypt(header.mode(), key, header.asciiBytes(), context, envelope.payload());
  }

  /**
   * Encrypts with {@code header ‖ context} as associated data for AEAD modes; returns the payload.
   */
  public byte[] encrypt(
      CipherMode mode, SecretKey key, byte[] header, byte[] context, byte[] plaintext) {
    byte[] payload = new byte[mode.payloadLength(plaintext.length)];
    mode.family().seal(source, key, header, Bytes.of(context), Bytes.of(plaintext), payload);
    return payload;
  }

  /**
   * Decrypts a payload; throws {@code DecryptionFailedException} when the tag, padding or key does
   * not fit, and {@link InvalidCiphertextException} when its length cannot be the mode's, as the
   * envelope's own check does before the server's cipher sees a payload.
   */
  public byte[] decrypt(
      CipherMode mode, SecretKey key, byte[] header, byte[] context, byte[] payload) {
    String problem = mode.payloadLengthProblem(payload.length);
    if (problem != null) {
      throw new InvalidCiphertextException(problem);
    }
    byte[] plaintext = new byte[payload.length];
    int length =
        mode.family().open(source, key, header, Bytes.of(context), Bytes.of(payload), plaintext);
    byte[] exact = Arrays.copyOf(plaintext, length);
    Arrays.fill(plaintext, (byte) 0);
    return exact;
  }

  /** Encrypts with a caller-chosen IV, for known-answer tests only. */
  public static byte[] encryptWithInsecureIv(
      CipherMode mode,
      SecretKey key,
      byte[] iv,
      byte[] header,
      byte[] context,
      byte[] plaintext,
      CipherPools pools) {
    return mode.family().sealWithInsecureIv(pools, key, iv, header, context, plaintext);
  }
}

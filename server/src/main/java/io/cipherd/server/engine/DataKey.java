package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.errors.InvalidArgumentException;
import java.util.Arrays;
import java.util.function.Function;

/**
 * A generated data key: its bytes (secret: wipe them once sent) and the same bytes wrapped.
 *
 * @param plaintextKey the data key
 * @param wrapped the data key encrypted with the named key's current version
 */
public record DataKey(byte[] plaintextKey, Encrypted wrapped) {
  /**
   * A fresh random data key of {@code keySizeBits} (0: 256) and the same bytes encrypted with the
   * current version of {@code keyName}, bound to {@code context}, once the caller was allowed to.
   */
  static DataKey generate(
      EnvelopeCipher envelopes, String keyName, int keySizeBits, ByteString context) {
    return generate(
        keySizeBits,
        dataKey ->
            WorkBuffers.withInput(
                ByteString.EMPTY,
                context,
                (text, contextBytes, buffers) ->
                    envelopes.encrypt(keyName, 0, Bytes.of(dataKey), contextBytes, buffers)));
  }

  /**
   * A fresh random data key of {@code keySizeBits} (0: 256) and the same bytes as {@code wrap}
   * encrypts them (a subject-bound ciphertext, say).
   */
  static DataKey generate(int keySizeBits, Function<byte[], Encrypted> wrap) {
    int bits = keySizeBits == 0 ? 256 : keySizeBits;
    if (bits != 128 && bits != 256) {
      throw new InvalidArgumentException(
          "key_size_bits of a data key must be 128 or 256 (0 means 256), got " + keySizeBits);
    }
    byte[] dataKey = NonceSource.bytes(bits / 8);
    try {
      return new DataKey(dataKey, wrap.apply(dataKey));
    } catch (RuntimeException e) {
      Arrays.fill(dataKey, (byte) 0);
      throw e;
    }
  }

  @Override
  public String toString() {
    return "DataKey["
        + plaintextKey.length * 8
        + " bits, wrapped by "
        + wrapped.header().versionedName()
        + "]";
  }
}

package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.Envelope;
import io.cipherd.server.crypto.EnvelopeHeader;

/**
 * A new ciphertext: the shared header bytes followed by the base64 payload, joined without a copy.
 *
 * @param header the key version and mode that made it
 * @param ciphertext the whole {@code <NAME/vVERSION:MODE>BASE64} text as ASCII bytes
 */
public record Encrypted(EnvelopeHeader header, ByteString ciphertext) {
  static Encrypted of(EnvelopeHeader header, byte[] payload) {
    return new Encrypted(header, header.ascii().concat(UnsafeByteOperations.unsafeWrap(Envelope.encodePayload(payload))));
  }

  public int keyVersion() {
    return header.version();
  }

  @Override
  public String toString() {
    return "Encrypted[" + header + ", " + ciphertext.size() + " bytes]";
  }
}

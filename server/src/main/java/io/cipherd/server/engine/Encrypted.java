package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * A new ciphertext: the header bytes followed by the base64 payload, in one array of exactly that
 * size.
 *
 * @param header the key version and mode that made it
 * @param ciphertext the whole {@code <NAME/vVERSION:MODE>BASE64} text as ASCII bytes
 */
public record Encrypted(EnvelopeHeader header, ByteString ciphertext) {
  public int keyVersion() {
    return header.version();
  }

  @Override
  public String toString() {
    return "Encrypted[" + header + ", " + ciphertext.size() + " bytes]";
  }
}

package io.cipherd.server.crypto.envelope;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A whole ciphertext parsed into its header and decoded payload, through {@link Envelope}'s own
 * parsing, and formatted back: a test convenience, as the server never holds a ciphertext this way.
 *
 * @param header which key version and mode the ciphertext names
 * @param payload the decoded mode bytes: IV, ciphertext and tag as the mode lays them out
 */
public record ParsedEnvelope(EnvelopeHeader header, byte[] payload) {
  /** Parses a ciphertext given as text. */
  public static ParsedEnvelope parse(String ciphertext) {
    if (ciphertext == null) {
      throw new InvalidCiphertextException("ciphertext is empty");
    }
    return parse(ciphertext.getBytes(StandardCharsets.UTF_8));
  }

  /** Parses a ciphertext given as its UTF-8 bytes. */
  public static ParsedEnvelope parse(byte[] text) {
    EnvelopeHeader header = Envelope.parseHeader(text, 0, text.length);
    byte[] payload = new byte[Envelope.maxPayloadLength(text.length)];
    int length = Envelope.decodePayload(header, text, 0, text.length, payload);
    return new ParsedEnvelope(header, Arrays.copyOf(payload, length));
  }

  /** The whole ciphertext as text, written by {@link Envelope#text}. */
  public String format() {
    return new String(Envelope.text(header, payload, payload.length), StandardCharsets.US_ASCII);
  }

  /** The base64 text of {@code payload}, to follow a header. */
  public static byte[] encodePayload(byte[] payload) {
    return Base64.getEncoder().encode(payload);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ParsedEnvelope e
        && e.header.equals(header)
        && Arrays.equals(e.payload, payload);
  }

  @Override
  public int hashCode() {
    return header.hashCode() * 31 + Arrays.hashCode(payload);
  }

  @Override
  public String toString() {
    return "ParsedEnvelope[" + header + ", " + payload.length + " payload bytes]";
  }
}

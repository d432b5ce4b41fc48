package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * A ciphertext as protobuf delivers a string field, laid out for decryption in this thread's {@link
 * WorkBuffers}: its header parsed, its payload decoded, and the request's context copied. A
 * ciphertext whose header is one seen lately (every ciphertext of a hot key) is decoded from the
 * string, its text never copied into the work buffers (only, in pieces, into the decoder's own
 * arrays); any other, or one whose payload does not decode, is copied and parsed from its bytes,
 * which also says precisely what is wrong with it.
 */
final class CiphertextInput {
  private CiphertextInput() {}

  /**
   * {@code ciphertext} and {@code context} parsed into this thread's {@link WorkBuffers}; the
   * caller wipes the result ({@link ParsedCiphertext#wipe}) when done. A ciphertext that does not
   * parse or decode fails here, reported to {@code envelopes}' observer, with the thread's copy
   * already wiped.
   */
  static ParsedCiphertext parse(EnvelopeCipher envelopes, String ciphertext, ByteString context) {
    return parse(envelopes, Envelope.recentHeader(ciphertext), ciphertext, context);
  }

  /**
   * As {@link #parse(EnvelopeCipher, String, ByteString)}, with {@code ciphertext}'s header as the
   * caller already parsed it ({@link Envelope#recentHeader} or {@link Envelope#peekHeader}), or
   * null when it has none, then parsed here.
   */
  static ParsedCiphertext parse(
      EnvelopeCipher envelopes, EnvelopeHeader parsed, String ciphertext, ByteString context) {
    WorkBuffers buffers = WorkBuffers.forThread();
    int contextLength = context.size();
    EnvelopeHeader recent = parsed != null ? parsed : Envelope.recentHeader(ciphertext);
    if (recent != null) {
      byte[] payload = buffers.payload(Envelope.maxPayloadLength(ciphertext.length()));
      Bytes decoded = Envelope.decodePayloadInPlace(recent, ciphertext, payload);
      if (decoded != null) {
        byte[] input = buffers.input(contextLength);
        context.copyTo(input, 0);
        return new ParsedCiphertext(recent, decoded, new Bytes(input, 0, contextLength));
      }
    }
    int used = ciphertext.length() + contextLength;
    byte[] input = buffers.input(used);
    try {
      int textLength = ciphertext.length();
      if (!Envelope.copyAscii(ciphertext, textLength, input)) {
        // Not ASCII, so not valid: parsed from its UTF-8 bytes, it fails exactly as they do.
        ByteString utf8 = ByteString.copyFromUtf8(ciphertext);
        WorkBuffers.wipe(input, textLength);
        textLength = utf8.size();
        used = textLength + contextLength;
        input = buffers.input(used);
        utf8.copyTo(input, 0);
      }
      context.copyTo(input, textLength);
      EnvelopeHeader header = envelopes.parseHeader(input, textLength);
      byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
      int payloadLength = envelopes.decodePayload(header, input, textLength, payload);
      return new ParsedCiphertext(
          header,
          new Bytes(payload, 0, payloadLength),
          new Bytes(input, textLength, contextLength));
    } catch (RuntimeException e) {
      WorkBuffers.wipe(input, used);
      throw e;
    }
  }
}

package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * A ciphertext as protobuf delivers a string field, laid out for decryption in this thread's {@link
 * WorkBuffers}: its header parsed, its payload decoded, and the request's context copied, then
 * wiped when the work returns. A ciphertext whose header is one seen lately (every ciphertext of a
 * hot key) is decoded straight from the string, the text never copied; any other, or one whose
 * payload does not decode, is copied and parsed from its bytes, which also says precisely what is
 * wrong with it.
 */
final class CiphertextInput {
  private CiphertextInput() {}

  /** Work on a parsed and decoded ciphertext, with the request's context. */
  @FunctionalInterface
  interface OpenWork<T> {
    T apply(
        EnvelopeHeader header,
        byte[] payload,
        int payloadLength,
        byte[] context,
        int contextFrom,
        int contextLength,
        WorkBuffers buffers);
  }

  /**
   * Runs {@code work} on {@code ciphertext} and {@code context}; a ciphertext that does not parse
   * or decode fails here, reported to {@code envelopes}' observer, before any work.
   */
  static <T> T open(
      EnvelopeCipher envelopes, String ciphertext, ByteString context, OpenWork<T> work) {
    return open(envelopes, Envelope.recentHeader(ciphertext), ciphertext, context, work);
  }

  /**
   * As {@link #open(EnvelopeCipher, String, ByteString, OpenWork)}, with {@code ciphertext}'s
   * header as the caller already parsed it ({@link Envelope#recentHeader} or {@link
   * Envelope#peekHeader}), or null when it has none, then parsed here.
   */
  static <T> T open(
      EnvelopeCipher envelopes,
      EnvelopeHeader parsed,
      String ciphertext,
      ByteString context,
      OpenWork<T> work) {
    EnvelopeHeader recent = parsed != null ? parsed : Envelope.recentHeader(ciphertext);
    if (recent != null) {
      WorkBuffers buffers = WorkBuffers.forThread();
      int contextLength = context.size();
      byte[] input = buffers.input(contextLength);
      try {
        byte[] payload = buffers.payload(Envelope.maxPayloadLength(ciphertext.length()));
        int payloadLength = Envelope.decodePayloadInPlace(recent, ciphertext, payload);
        if (payloadLength >= 0) {
          context.copyTo(input, 0);
          return work.apply(recent, payload, payloadLength, input, 0, contextLength, buffers);
        }
      } finally {
        WorkBuffers.wipe(input, contextLength);
      }
    }
    return WorkBuffers.withInput(
        ciphertext,
        context,
        (input, textLength, contextLength, buffers) -> {
          EnvelopeHeader header = envelopes.parseHeader(input, textLength);
          byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
          int payloadLength = envelopes.decodePayload(header, input, textLength, payload);
          return work.apply(
              header, payload, payloadLength, input, textLength, contextLength, buffers);
        });
  }
}

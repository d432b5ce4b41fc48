package io.cipherd.server.engine;

import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.subjects.SubjectRef;

/**
 * A ciphertext ready to decrypt: its parsed {@code header} (the key version and mode it names), its
 * decoded {@code payload}, and the request's {@code context}, the two slices in this thread's
 * {@link WorkBuffers} ({@link CiphertextInput#parse}). It is good until the thread's next parse,
 * and its holder must {@link #wipe} it when done, whether the work succeeded or threw.
 */
public record ParsedCiphertext(EnvelopeHeader header, Bytes payload, Bytes context) {
  /**
   * Overwrites the thread's copy of the request, the context and any text before it in the same
   * buffer, with zeros. The payload is ciphertext and stays.
   */
  public void wipe() {
    WorkBuffers.wipe(context.array(), context.end());
  }

  /** The subject reference a subject-bound payload starts with, read in place. */
  public SubjectRef subjectRef() {
    return SubjectRef.read(payload.array(), payload.offset());
  }
}

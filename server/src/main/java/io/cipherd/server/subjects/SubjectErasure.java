package io.cipherd.server.subjects;

import java.time.Instant;
import java.util.List;

/**
 * What erasing one subject under one key did.
 *
 * @param subjectHash the subject
 * @param outcome whether this call erased it, it was erased before, or it never had a key
 * @param erased when it was erased (this call's time, or the earlier erasure's); null if {@link
 *     Outcome#NOT_FOUND}
 * @param refs the references of the keys this call erased (empty unless {@link Outcome#ERASED})
 */
public record SubjectErasure(
    SubjectHash subjectHash, Outcome outcome, Instant erased, List<SubjectRef> refs) {
  /** The three outcomes of an erasure. */
  public enum Outcome {
    ERASED,
    ALREADY_ERASED,
    NOT_FOUND
  }

  public SubjectErasure {
    refs = List.copyOf(refs);
  }
}

package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.subjectkeys.SubjectKey;
import java.util.Map;

/**
 * The subject keys of one encrypting call (a batch's items or one request), looked up and created
 * at once before any item is sealed: each subject id maps to its key, or to the error of its items
 * alone (an erased subject, the creation quota, an id that is not valid).
 *
 * @param header the subject-bound header the call's ciphertexts start with
 * @param bySubject each subject id to its {@link SubjectKey} or {@link RuntimeException}
 */
public record SubjectKeysForEncryption(EnvelopeHeader header, Map<String, Object> bySubject) {
  /** The key of {@code subject}; throws its error if it has none. */
  public SubjectKey keyFor(String subject) {
    Object resolved = bySubject.get(subject);
    if (resolved instanceof SubjectKey key) {
      return key;
    }
    if (resolved instanceof RuntimeException e) {
      throw e;
    }
    throw new IllegalStateException("subject not resolved for this call");
  }
}

package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.subjectkeys.SubjectKey;

/**
 * The subject keys of one encrypting call (a batch's subject-bound items or one request), looked up
 * and created at once before any item is sealed: for each subject-bound item, in order, its
 * subject's key, or the error of that item alone (an erased subject, the creation quota, an id that
 * is not valid).
 */
public final class SubjectKeysForEncryption {
  private final EnvelopeHeader header;
  private final Object[] byItem;

  /**
   * @param header the subject-bound header the call's ciphertexts start with
   * @param byItem each subject-bound item's {@link SubjectKey} or {@link RuntimeException}, in the
   *     order of the ids they were looked up by
   */
  SubjectKeysForEncryption(EnvelopeHeader header, Object[] byItem) {
    this.header = header;
    this.byItem = byItem;
  }

  /** The subject-bound header the call's ciphertexts start with. */
  public EnvelopeHeader header() {
    return header;
  }

  /** The key of the call's {@code item}th subject-bound item; throws its error if it has none. */
  public SubjectKey keyFor(int item) {
    Object resolved = byItem[item];
    if (resolved instanceof SubjectKey key) {
      return key;
    }
    if (resolved instanceof RuntimeException e) {
      throw e;
    }
    throw new IllegalStateException("subject not resolved for this call");
  }
}

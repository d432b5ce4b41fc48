package io.cipherd.server.subjects;

import java.time.Instant;
import java.util.Objects;

/**
 * One row of the subject store: a subject's key under one named key, or the tombstone left when it
 * was erased.
 *
 * @param ref the reference its ciphertexts carry
 * @param keyName the named key whose versions wrap the subject key
 * @param subjectHash the keyed hash of the subject's id
 * @param wrappedKey the 256-bit subject key wrapped under {@code wrapVersion} of {@code keyName},
 *     as a cipherd ciphertext of that key version; null once erased
 * @param wrapVersion the version of {@code keyName} that wraps it; 0 once erased
 * @param created when the subject key was made
 * @param erased when it was erased, or null while it lives
 */
public record SubjectRecord(
    SubjectRef ref,
    String keyName,
    SubjectHash subjectHash,
    String wrappedKey,
    int wrapVersion,
    Instant created,
    Instant erased) {
  public SubjectRecord {
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(keyName, "keyName");
    Objects.requireNonNull(subjectHash, "subjectHash");
    Objects.requireNonNull(created, "created");
    if ((erased == null) != (wrappedKey != null && wrapVersion > 0)) {
      throw new IllegalArgumentException(
          "a live subject has a wrapped key and its version; an erased one has neither");
    }
  }

  /** A live subject key. */
  public static SubjectRecord live(
      SubjectRef ref,
      String keyName,
      SubjectHash subjectHash,
      String wrappedKey,
      int wrapVersion,
      Instant created) {
    return new SubjectRecord(ref, keyName, subjectHash, wrappedKey, wrapVersion, created, null);
  }

  /** Whether the subject was erased: its key is gone. */
  public boolean isErased() {
    return erased != null;
  }

  /** This record erased at {@code when}: no key, no version. */
  public SubjectRecord erasedAt(Instant when) {
    return new SubjectRecord(ref, keyName, subjectHash, null, 0, created, when);
  }

  /** This record with its key rewrapped under {@code version}. */
  public SubjectRecord rewrapped(String wrapped, int version) {
    return new SubjectRecord(ref, keyName, subjectHash, wrapped, version, created, erased);
  }

  @Override
  public String toString() {
    // Never the wrapped key: it is key material, if wrapped.
    return "SubjectRecord[ref="
        + ref
        + ", key="
        + keyName
        + ", hash="
        + subjectHash
        + ", v"
        + wrapVersion
        + (erased != null ? ", erased " + erased : "")
        + "]";
  }
}

package io.cipherd.server.subjectkeys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.time.Instant;
import java.util.Map;

/**
 * The subject of a ciphertext (or of an encryption) was erased: its key is gone for good. Names the
 * key and when, never the subject, whose id the caller sent and the server does not repeat.
 */
public final class SubjectErasedException extends CipherdException {
  public SubjectErasedException(String keyName, Instant erased, boolean encrypting) {
    super(
        ErrorKind.SUBJECT_ERASED,
        encrypting
            ? "the subject was erased under key '"
                + keyName
                + "' at "
                + erased
                + "; set renew_erased_subject to start a new subject key for it"
            : "the ciphertext's subject was erased under key '"
                + keyName
                + "' at "
                + erased
                + ": its data can never be decrypted again");
    describe(Map.of("key", keyName, "erase_time", erased.toString()));
  }
}

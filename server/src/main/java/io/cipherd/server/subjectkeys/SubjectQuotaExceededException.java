package io.cipherd.server.subjectkeys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * The caller made new subject keys faster than {@code --subject-creation-rate} allows; subjects
 * that already have a key still work.
 */
public final class SubjectQuotaExceededException extends CipherdException {
  public SubjectQuotaExceededException(String keyName, int ratePerSecond) {
    super(
        ErrorKind.SUBJECT_QUOTA_EXCEEDED,
        "this caller creates new subject keys faster than the server allows ("
            + ratePerSecond
            + " per second, --subject-creation-rate); existing subjects still work, retry later");
    describe(Map.of("key", keyName));
  }
}

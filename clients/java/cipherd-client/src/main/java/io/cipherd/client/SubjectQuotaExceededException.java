package io.cipherd.client;

/**
 * This caller made new subject keys faster than the server allows (SUBJECT_QUOTA_EXCEEDED);
 * subjects that already have a key still work; retry later.
 */
public class SubjectQuotaExceededException extends ResourceExhaustedException {
  private static final long serialVersionUID = 1L;

  SubjectQuotaExceededException(ErrorDetails details) {
    super(details);
  }
}

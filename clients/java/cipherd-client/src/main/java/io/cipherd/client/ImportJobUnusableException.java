package io.cipherd.client;

/**
 * The import job named is unknown, expired, already used, or made for another key
 * (IMPORT_JOB_UNUSABLE): create a new one.
 */
public class ImportJobUnusableException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  ImportJobUnusableException(ErrorDetails details) {
    super(details);
  }
}

package io.cipherd.server.subjects;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A subject-bound call on a server that has no subject store its replicas share:
 * FAILED_PRECONDITION until the operator configures one, never a subject key that only this replica
 * would know.
 */
public final class SubjectStoreNotConfiguredException extends CipherdException {
  public SubjectStoreNotConfiguredException(String message) {
    super(ErrorKind.SUBJECT_STORE_NOT_CONFIGURED, message, /* cause= */ null);
  }
}

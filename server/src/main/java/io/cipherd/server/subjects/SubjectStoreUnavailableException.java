package io.cipherd.server.subjects;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * The subject store cannot be read or written right now (database down, pool exhausted, disk
 * error): callers get UNAVAILABLE. The message names the operation and the database's error class,
 * never a subject hash, reference or wrapped key (a database's own message may quote the values of
 * a row, so it is kept in the cause, not here).
 */
public final class SubjectStoreUnavailableException extends CipherdException {
  public SubjectStoreUnavailableException(String message) {
    super(ErrorKind.STORE_UNAVAILABLE, message, /* cause= */ null);
  }

  public SubjectStoreUnavailableException(String message, Throwable cause) {
    super(ErrorKind.STORE_UNAVAILABLE, message, cause);
  }
}

package io.cipherd.server.audit;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A call's audit record could not be written. With {@code --audit-required} the call fails with
 * UNAVAILABLE rather than be served unaudited.
 */
public final class AuditUnavailableException extends CipherdException {
  public AuditUnavailableException(String message) {
    super(ErrorKind.AUDIT_UNAVAILABLE, message);
  }
}

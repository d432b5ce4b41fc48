package io.cipherd.client;

/**
 * The server requires an audit record for every call and could not write this one, so it did not
 * serve the call; retry later.
 */
public class AuditUnavailableException extends UnavailableException {
  private static final long serialVersionUID = 1L;

  AuditUnavailableException(ErrorDetails details) {
    super(details);
  }
}

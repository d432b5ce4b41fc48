package io.cipherd.client;

/** The access policy or the key store refused the call (PERMISSION_DENIED). */
public class PermissionDeniedException extends CipherdException {
  private static final long serialVersionUID = 1L;

  PermissionDeniedException(ErrorDetails details) {
    super(details);
  }
}

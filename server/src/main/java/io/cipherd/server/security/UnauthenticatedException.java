package io.cipherd.server.security;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/** An access policy is configured and the caller presented no identity: UNAUTHENTICATED. */
public final class UnauthenticatedException extends CipherdException {
  static final String HOW =
      "present a client certificate or an 'authorization: Bearer <token>' header";

  /** A call refused before its request is read; {@code message} says why and what to present. */
  UnauthenticatedException(String message) {
    super(ErrorKind.UNAUTHENTICATED, message);
  }

  /** {@code revoked}: the call's credential is no longer in the access policy in force. */
  UnauthenticatedException(Operation operation, String keyName, boolean revoked) {
    super(
        ErrorKind.UNAUTHENTICATED,
        "the credential this call was opened with is no longer accepted (the access policy "
            + "changed since); it may not "
            + operation.configName()
            + " with key '"
            + keyName
            + "': open a new call with a current credential");
  }

  UnauthenticatedException(Operation operation, String keyName) {
    super(
        ErrorKind.UNAUTHENTICATED,
        "an anonymous caller may not "
            + operation.configName()
            + " with key '"
            + keyName
            + "': "
            + HOW);
  }
}

package io.cipherd.server.security;

import io.cipherd.server.CipherdException;

/** An access policy is configured and the caller presented no identity: UNAUTHENTICATED. */
public final class UnauthenticatedException extends CipherdException {
  UnauthenticatedException(Operation operation, String keyName) {
    super("an anonymous caller may not " + operation.configName() + " with key '" + keyName
        + "': present a client certificate or an 'authorization: Bearer <token>' header",
        /* withStackTrace= */ false);
  }
}

package io.cipherd.server.security;

import io.cipherd.server.CipherdException;

/** The access policy does not let this caller perform this operation with this key: PERMISSION_DENIED. */
public final class AccessDeniedException extends CipherdException {
  AccessDeniedException(String caller, Operation operation, String keyName) {
    super("caller '" + caller + "' may not " + operation.configName() + " with key '" + keyName + "'",
        /* withStackTrace= */ false);
  }
}

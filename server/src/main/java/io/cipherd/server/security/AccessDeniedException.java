package io.cipherd.server.security;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * The access policy does not let this caller perform this operation with this key: PERMISSION_DENIED.
 */
public final class AccessDeniedException extends CipherdException {
  AccessDeniedException(String caller, Operation operation, String keyName) {
    this(caller, operation, keyName, "");
  }

  /** {@code why} (empty or starting with ": ") says what more the operation needs here. */
  AccessDeniedException(String caller, Operation operation, String keyName, String why) {
    super(ErrorKind.ACCESS_DENIED, "caller '" + caller + "' may not "
        + operation.configName() + " with key '" + keyName + "'" + why);
  }
}

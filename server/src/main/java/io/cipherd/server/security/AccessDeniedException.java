package io.cipherd.server.security;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * The access policy does not let this caller perform this operation with this key:
 * PERMISSION_DENIED. The key name is a valid one (at most 64 characters) and the caller's name is
 * shortened, so the message stays small whatever a certificate or request carried.
 */
public final class AccessDeniedException extends CipherdException {
  AccessDeniedException(String caller, Operation operation, String keyName) {
    this(caller, operation, keyName, "");
  }

  /** {@code why} (empty or starting with ": ") says what more the operation needs here. */
  AccessDeniedException(String caller, Operation operation, String keyName, String why) {
    super(
        ErrorKind.ACCESS_DENIED,
        "caller '"
            + CallerIdentity.shortened(caller)
            + "' may not "
            + operation.configName()
            + " with key '"
            + keyName
            + "'"
            + why);
    describe(Map.of("key", keyName, "operation", operation.configName()));
  }
}

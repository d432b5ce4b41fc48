package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * A key or version that exists but whose lifecycle refuses the call: FAILED_PRECONDITION with a
 * reason of its own, so a ciphertext under a destroyed version is told apart from one that failed
 * to decrypt.
 */
public final class KeyUnavailableException extends CipherdException {
  private KeyUnavailableException(ErrorKind kind, String message) {
    super(kind, message);
  }

  /** The key does not serve calls: disabled, scheduled for deletion or deleted. */
  public static KeyUnavailableException keyDisabled(String name, KeyLifecycle lifecycle) {
    String state =
        switch (lifecycle.state()) {
          case DELETION_SCHEDULED -> "scheduled for deletion";
          case DELETED -> "deleted";
          case ENABLED, DISABLED -> "disabled";
        };
    KeyUnavailableException e =
        new KeyUnavailableException(ErrorKind.KEY_DISABLED, "key '" + name + "' is " + state);
    e.describe(Map.of("key", name));
    return e;
  }

  /** The version is scheduled for destruction or destroyed. */
  public static KeyUnavailableException version(
      String name, int version, VersionLifecycle lifecycle) {
    boolean destroyed = lifecycle.state() == VersionLifecycle.State.DESTROYED;
    KeyUnavailableException e =
        new KeyUnavailableException(
            destroyed
                ? ErrorKind.KEY_VERSION_DESTROYED
                : ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED,
            destroyed
                ? "key version destroyed: version " + version + " of key '" + name + "'"
                : "version "
                    + version
                    + " of key '"
                    + name
                    + "' is scheduled for destruction; cancel it to use the version again");
    e.describe(Map.of("key", name, "version", Integer.toString(version)));
    return e;
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/** A key, or a version of a key, that does not exist. */
public final class KeyNotFoundException extends CipherdException {
  private KeyNotFoundException(String message) {
    super(ErrorKind.KEY_NOT_FOUND, message);
  }

  public static KeyNotFoundException key(String name) {
    KeyNotFoundException e = new KeyNotFoundException("key '" + name + "' not found");
    e.describe(Map.of("key", name));
    return e;
  }

  public static KeyNotFoundException version(String name, int version) {
    KeyNotFoundException e =
        new KeyNotFoundException("key '" + name + "' has no version " + version);
    e.describe(Map.of("key", name, "version", Integer.toString(version)));
    return e;
  }
}

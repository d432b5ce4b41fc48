package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/** A key, or a version of a key, that does not exist. */
public final class KeyNotFoundException extends CipherdException {
  private KeyNotFoundException(String message) {
    super(ErrorKind.KEY_NOT_FOUND, message);
  }

  public static KeyNotFoundException key(String name) {
    return new KeyNotFoundException("key '" + name + "' not found");
  }

  public static KeyNotFoundException version(String name, int version) {
    return new KeyNotFoundException("key '" + name + "' has no version " + version);
  }
}

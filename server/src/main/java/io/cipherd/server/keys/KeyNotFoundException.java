package io.cipherd.server.keys;

import io.cipherd.server.CipherdException;

/** A key, or a version of a key, that does not exist. */
public final class KeyNotFoundException extends CipherdException {
  private KeyNotFoundException(String message) {
    super(message, /* withStackTrace= */ false);
  }

  public static KeyNotFoundException key(String name) {
    return new KeyNotFoundException("key '" + name + "' not found");
  }

  public static KeyNotFoundException version(String name, int version) {
    return new KeyNotFoundException("key '" + name + "' has no version " + version);
  }
}

package io.cipherd.server.keys;

import io.cipherd.server.CipherdException;

/** CreateKey with a name that is taken. */
public final class KeyAlreadyExistsException extends CipherdException {
  public KeyAlreadyExistsException(String name) {
    super("key '" + name + "' already exists", /* withStackTrace= */ false);
  }
}

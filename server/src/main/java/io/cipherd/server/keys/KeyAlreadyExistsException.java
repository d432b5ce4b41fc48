package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/** CreateKey with a name that is taken. */
public final class KeyAlreadyExistsException extends CipherdException {
  public KeyAlreadyExistsException(String name) {
    super(ErrorKind.KEY_ALREADY_EXISTS, "key '" + name + "' already exists");
    describe(Map.of("key", name));
  }
}

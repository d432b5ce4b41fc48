package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/** CreateKey with a name that is taken, by a key or by a deleted key's tombstone. */
public final class KeyAlreadyExistsException extends CipherdException {
  public KeyAlreadyExistsException(String name) {
    this(name, "key '" + name + "' already exists");
  }

  private KeyAlreadyExistsException(String name, String message) {
    super(ErrorKind.KEY_ALREADY_EXISTS, message);
    describe(Map.of("key", name));
  }

  /**
   * The name belongs to a deleted key: it stays taken for good, so data under the old key is never
   * mistaken for a new key's.
   */
  public static KeyAlreadyExistsException deleted(String name) {
    return new KeyAlreadyExistsException(
        name,
        "key '"
            + name
            + "' already exists: the name belongs to a deleted key, and a deleted key's name is"
            + " never used again; choose another name");
  }
}

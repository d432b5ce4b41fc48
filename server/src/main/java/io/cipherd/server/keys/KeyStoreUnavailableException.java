package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * The key store cannot be read or written right now (disk error, Vault down); the message names it.
 */
public final class KeyStoreUnavailableException extends CipherdException {
  /** Without a cause: cipherd itself found the store unusable. */
  public KeyStoreUnavailableException(String message) {
    super(ErrorKind.STORE_UNAVAILABLE, message, /* cause= */ null);
  }

  public KeyStoreUnavailableException(String message, Throwable cause) {
    super(ErrorKind.STORE_UNAVAILABLE, message, cause);
  }
}

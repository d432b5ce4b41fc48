package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * The key store refused this service access (a Vault policy without the right capability); the
 * message names the path.
 */
public final class KeyStoreAccessDeniedException extends CipherdException {
  public KeyStoreAccessDeniedException(String message) {
    super(ErrorKind.STORE_ACCESS_DENIED, message);
  }
}

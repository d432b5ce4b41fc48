package io.cipherd.server.keys;

import io.cipherd.server.CipherdException;

/** The key store refused this service access (a Vault policy without the right capability); the message names the path. */
public final class KeyStoreAccessDeniedException extends CipherdException {
  public KeyStoreAccessDeniedException(String message) {
    super(message, /* withStackTrace= */ false);
  }
}

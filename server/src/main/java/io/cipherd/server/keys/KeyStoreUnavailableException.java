package io.cipherd.server.keys;

import io.cipherd.server.CipherdException;

/** The key store cannot be read or written right now (disk error, Vault down); the message names it. */
public final class KeyStoreUnavailableException extends CipherdException {
  public KeyStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

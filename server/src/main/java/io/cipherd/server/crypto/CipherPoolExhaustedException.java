package io.cipherd.server.crypto;

import io.cipherd.server.CipherdException;

/** Every pooled cipher of a mode stayed busy for the whole borrow wait: the server is overloaded. */
public final class CipherPoolExhaustedException extends CipherdException {
  public CipherPoolExhaustedException(Mode mode, long waitedMillis) {
    super("all " + mode.headerName() + " ciphers are busy (waited " + waitedMillis + " ms); retry later",
        /* withStackTrace= */ false);
  }
}

package io.cipherd.server.pool;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * Every pooled cipher of a mode stayed busy for the whole borrow wait: the server is overloaded.
 */
public final class CipherPoolExhaustedException extends CipherdException {
  public CipherPoolExhaustedException(CipherMode mode, long waitedMillis) {
    super(
        ErrorKind.POOL_EXHAUSTED,
        "all "
            + mode.headerName()
            + " ciphers are busy (waited "
            + waitedMillis
            + " ms); retry later");
  }
}

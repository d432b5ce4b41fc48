package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * Another writer changed a key between our read and our write; nothing was stored. Safe to retry.
 */
public final class ConcurrentKeyUpdateException extends CipherdException {
  public ConcurrentKeyUpdateException(String name, int expectedVersion) {
    super(
        ErrorKind.CONCURRENT_UPDATE,
        "key '"
            + name
            + "' changed while it was being updated (expected current version "
            + expectedVersion
            + "); retry");
    describe(Map.of("key", name));
  }
}

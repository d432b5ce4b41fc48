package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/** BackupKey named a key that was never made exportable (CreateKey's flag, SetKeyExportable). */
public final class KeyNotExportableException extends CipherdException {
  public KeyNotExportableException(String name) {
    super(
        ErrorKind.KEY_NOT_EXPORTABLE,
        "key '"
            + name
            + "' is not exportable: only a key created exportable, or marked so by"
            + " SetKeyExportable (which needs admin and cannot be undone), can be backed up");
    describe(Map.of("key", name));
  }
}

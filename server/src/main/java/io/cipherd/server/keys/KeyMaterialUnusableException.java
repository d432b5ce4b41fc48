package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * A key version whose stored material the key store cannot turn back into its bytes: the blob did
 * not unwrap with the key-encryption key (wrapped by another KEK, changed, copied from another
 * version's place) or is stored raw where only wrapped material is accepted. Retrying does not
 * help; an operator must: FAILED_PRECONDITION ({@link ErrorKind#KEY_MATERIAL_UNUSABLE}), naming the
 * key and version and nothing of why, which the store logs for the operator.
 */
public final class KeyMaterialUnusableException extends CipherdException {
  public KeyMaterialUnusableException(String name, int version, Throwable cause) {
    super(
        ErrorKind.KEY_MATERIAL_UNUSABLE,
        "key '"
            + name
            + "' version "
            + version
            + ": its stored key material could not be unwrapped; an operator must see the"
            + " server log",
        cause);
    describe(Map.of("key", name, "version", Integer.toString(version)));
  }
}

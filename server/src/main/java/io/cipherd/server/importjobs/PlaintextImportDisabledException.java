package io.cipherd.server.importjobs;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * ImportKey carried key material (or a passphrase) in the clear, and this server takes only
 * material wrapped for an import job: its operator has not set {@code
 * --allow-plaintext-key-import}.
 */
public final class PlaintextImportDisabledException extends CipherdException {
  public PlaintextImportDisabledException(String keyName) {
    super(
        ErrorKind.PLAINTEXT_IMPORT_DISABLED,
        "this server takes key material only wrapped: create an import job (CreateImportJob), "
            + "wrap the material for its public key and send it as wrapped_key_material; "
            + "key_material and passphrase in the clear need --allow-plaintext-key-import");
    describe(Map.of("key", keyName));
  }
}

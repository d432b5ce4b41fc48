package io.cipherd.server.importjobs;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * CreateImportJob refused because this replica holds as many live jobs as it allows (for the
 * caller, or in all), or is generating another job's RSA key: RESOURCE_EXHAUSTED, retry later.
 */
public final class ImportJobLimitException extends CipherdException {
  public ImportJobLimitException(String why) {
    super(ErrorKind.SERVER_BUSY, why + "; retry later, or use or let expire the jobs made before");
  }
}

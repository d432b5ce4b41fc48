package io.cipherd.server.importjobs;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import java.util.Map;

/**
 * The import job an ImportKey names is unknown, expired, already used, or made for another key: one
 * message for all four, so the answer says nothing about other callers' jobs.
 */
public final class ImportJobUnusableException extends CipherdException {
  public ImportJobUnusableException(String keyName) {
    super(
        ErrorKind.IMPORT_JOB_UNUSABLE,
        "the import job is unknown, expired, already used or made for another key; "
            + "create a new one (CreateImportJob) and wrap the material for it");
    describe(Map.of("key", keyName));
  }
}

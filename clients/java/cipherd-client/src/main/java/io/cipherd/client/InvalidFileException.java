package io.cipherd.client;

import io.grpc.Status;
import java.util.Map;

/**
 * A data-key file (proto/README.md, "Data-key file format") did not read back, found by this
 * client; {@link #defect()} is one of proto/testdata/datakey_files.json's reasons
 * ("header_invalid", "truncated", "chunk_invalid"). Plaintext written before the failure must be
 * thrown away.
 */
public class InvalidFileException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  private final String defect;

  InvalidFileException(String defect, String problem) {
    super(
        new ErrorDetails(
            Status.Code.INVALID_ARGUMENT, "", "invalid data-key file: " + problem, Map.of(), null));
    this.defect = defect;
  }

  /** How the file failed: "header_invalid", "truncated" or "chunk_invalid". */
  public String defect() {
    return defect;
  }
}

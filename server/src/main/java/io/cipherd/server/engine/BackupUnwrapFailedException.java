package io.cipherd.server.engine;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A RestoreKey whose wrapped backup did not unwrap or did not parse as a key backup. One message
 * whatever failed (the RSA-OAEP block, the key wrap's integrity check, the serialized backup), so a
 * tampered or mis-addressed backup tells the caller nothing about where it broke.
 */
public final class BackupUnwrapFailedException extends CipherdException {
  /** The one message every such failure carries. */
  public static final String MESSAGE = "the backup does not unwrap";

  public BackupUnwrapFailedException() {
    super(ErrorKind.INVALID_ARGUMENT, MESSAGE);
  }
}

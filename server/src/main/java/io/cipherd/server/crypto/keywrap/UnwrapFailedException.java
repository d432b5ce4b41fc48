package io.cipherd.server.crypto.keywrap;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * Wrapped key material that did not unwrap. One message whatever failed (its length, the RSA-OAEP
 * block, the AES key wrap's integrity check), so a caller learns nothing about where: no padding
 * oracle.
 */
public final class UnwrapFailedException extends CipherdException {
  /** The one message every unwrap failure carries. */
  public static final String MESSAGE = "the wrapped key material did not unwrap";

  public UnwrapFailedException() {
    super(ErrorKind.INVALID_ARGUMENT, MESSAGE);
  }
}

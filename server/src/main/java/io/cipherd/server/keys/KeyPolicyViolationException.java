package io.cipherd.server.keys;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;

/**
 * A key exists but its policy refuses the operation, e.g. a version below min_decryption_version.
 */
public final class KeyPolicyViolationException extends CipherdException {
  public KeyPolicyViolationException(String message) {
    super(ErrorKind.POLICY_DENIED, message);
  }
}

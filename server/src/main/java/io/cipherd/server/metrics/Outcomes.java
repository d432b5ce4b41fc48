package io.cipherd.server.metrics;

import io.cipherd.server.InvalidArgumentException;
import io.cipherd.server.crypto.CipherPoolExhaustedException;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.InvalidCiphertextException;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyStoreUnavailableException;

/** The fixed set of {@code outcome} label values, so an exception type can never become a new series. */
final class Outcomes {
  static final String OK = "ok";

  private Outcomes() {}

  static String of(Throwable error) {
    if (error instanceof DecryptionFailedException) {
      return "decryption_failed";
    }
    if (error instanceof InvalidCiphertextException) {
      return "invalid_ciphertext";
    }
    if (error instanceof InvalidArgumentException) {
      return "invalid_argument";
    }
    if (error instanceof KeyNotFoundException) {
      return "key_not_found";
    }
    if (error instanceof KeyPolicyViolationException) {
      return "policy_denied";
    }
    if (error instanceof CipherPoolExhaustedException) {
      return "pool_exhausted";
    }
    if (error instanceof KeyStoreUnavailableException) {
      return "store_unavailable";
    }
    return "error";
  }
}

package io.cipherd.server.engine;

import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.keycache.KeyCache;

/**
 * Which errors of {@link KeyCache#forDecryption} come after the ciphertext's key version was found:
 * those the engine tells as {@link CryptoObserver#refused} with the header's version, which then
 * counts as a failure of that version (its data exists) and, when it is pending destruction, as a
 * use of a version pending destruction.
 */
final class VersionRefusals {
  private VersionRefusals() {}

  /**
   * Whether {@code error}, thrown while resolving a ciphertext's version, says the version exists:
   * pending destruction, below min_decryption_version, or of another mode than the header.
   */
  static boolean foundVersion(RuntimeException error) {
    return error instanceof CipherdException e
        && (e.kind() == ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED
            || e.kind() == ErrorKind.POLICY_DENIED
            || e.kind() == ErrorKind.DECRYPTION_FAILED);
  }
}

package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;

/**
 * What a ciphertext's header says, next to its key's current state.
 *
 * @param header the key, version and mode the ciphertext names
 * @param currentVersion the key's current version
 */
public record Inspection(EnvelopeHeader header, int currentVersion) {
  /**
   * Whether the ciphertext is under an older version than the current one: a ReEncrypt candidate.
   */
  public boolean behindCurrent() {
    // A subject-bound ciphertext names no version: the sweep moves its subject key, not it.
    return !header.isSubjectBound() && header.version() < currentVersion;
  }
}

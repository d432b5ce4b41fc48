package io.cipherd.client;

/** A key version's state: enabled, scheduled for destruction, or destroyed (its bytes gone). */
public enum KeyVersionState {
  ENABLED,
  DESTRUCTION_SCHEDULED,
  DESTROYED,
  /** A state newer than this client. */
  UNKNOWN
}

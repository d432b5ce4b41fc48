package io.cipherd.client;

/** A key's lifecycle state (proto/README.md, "Key lifecycle"). */
public enum KeyState {
  ENABLED,
  DISABLED,
  DELETION_SCHEDULED,
  DELETED,
  /** A state newer than this client. */
  UNKNOWN
}

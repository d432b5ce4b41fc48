package io.cipherd.client;

/** A subject's state under a key. */
public enum SubjectState {
  /** The subject has a key; its data decrypts. */
  ACTIVE,
  /** The subject's key was erased; its data never decrypts again. */
  ERASED,
  /** The subject never had a key under the key name. */
  NO_KEY,
  /** A state newer than this client. */
  UNKNOWN
}

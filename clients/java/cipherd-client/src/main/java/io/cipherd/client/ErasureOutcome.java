package io.cipherd.client;

/** What erasing a subject did. */
public enum ErasureOutcome {
  /** This call erased the subject's key; the erasure carries a receipt. */
  ERASED,
  /** An earlier call erased it; the erase time is that call's. */
  ALREADY_ERASED,
  /** The subject never had a key under the key name: nothing of it is encrypted there. */
  NO_KEY,
  /** An outcome newer than this client. */
  UNKNOWN
}

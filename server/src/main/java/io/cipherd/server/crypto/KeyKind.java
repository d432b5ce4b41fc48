package io.cipherd.server.crypto;

/** What a key is for. All versions of one key are of one kind. */
public enum KeyKind {
  /** Encrypts and decrypts cipherd ciphertexts, in one of the {@link CipherMode}s. */
  ENCRYPTION("an encryption key"),
  /** Computes blind indexes (HMAC-SHA-256) only. */
  INDEX("an index key"),
  /** Decrypts data made before cipherd, for ReEncrypt only. */
  LEGACY("a legacy key"),
  /** Encrypts values that keep their shape (FF1), for EncryptFormatted and its siblings only. */
  FORMAT_PRESERVING("a format-preserving key");

  private final String description;

  KeyKind(String description) {
    this.description = description;
  }

  /** The kind as error messages say it, e.g. "an index key". */
  public String description() {
    return description;
  }
}

package io.cipherd.client;

/**
 * A well-formed ciphertext did not decrypt: wrong key, wrong context or tampered. It never says
 * which; its message says what to check.
 */
public class DecryptionFailedException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  static final String HINT =
      "check that the context is the one given at encryption, byte for byte (none if none was),"
          + " that the ciphertext is intact, and that its key is this server's";

  DecryptionFailedException(ErrorDetails details) {
    super(details);
  }

  @Override
  public String getMessage() {
    return super.getMessage() + " (" + HINT + ")";
  }
}

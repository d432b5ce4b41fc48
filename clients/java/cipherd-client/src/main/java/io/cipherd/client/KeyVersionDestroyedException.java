package io.cipherd.client;

/**
 * The version's bytes were destroyed: its ciphertexts can never be decrypted again. Never a {@link
 * DecryptionFailedException}: nothing is wrong with the ciphertext.
 */
public class KeyVersionDestroyedException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyVersionDestroyedException(ErrorDetails details) {
    super(details);
  }
}

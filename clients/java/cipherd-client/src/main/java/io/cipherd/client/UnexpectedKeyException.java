package io.cipherd.client;

/**
 * The ciphertext is under a key other than the call's expectedKey (reason UNEXPECTED_KEY): refused
 * before anything was decrypted. {@link #metadata()} names both, "key" and "expected_key".
 */
public class UnexpectedKeyException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  UnexpectedKeyException(ErrorDetails details) {
    super(details);
  }
}

package io.cipherd.client;

/**
 * The key version's stored material did not unwrap with the server's key-encryption key
 * (KEY_MATERIAL_UNUSABLE): retrying does not help, the server's operator must (its log says why).
 * {@link #metadata()} has the key and version.
 */
public class KeyMaterialUnusableException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  KeyMaterialUnusableException(ErrorDetails details) {
    super(details);
  }
}

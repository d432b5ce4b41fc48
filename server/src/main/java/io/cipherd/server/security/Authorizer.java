package io.cipherd.server.security;

/**
 * The one place that decides whether the current caller (from {@code api.CallerIdentity}) may use
 * a key. Without an access policy it is {@link #ALLOW_ALL}, which costs nothing per call.
 */
public interface Authorizer {
  /** Allows everything: no access policy is configured. */
  Authorizer ALLOW_ALL = new Authorizer() {
    @Override
    public void check(Operation operation, String keyName) {}

    @Override
    public boolean allows(Operation operation, String keyName) {
      return true;
    }

    @Override
    public void checkReEncrypt(String sourceKey, String targetKey) {}
  };

  /** Throws {@link AccessDeniedException} or {@link UnauthenticatedException} unless allowed. */
  void check(Operation operation, String keyName);

  /** Whether the caller may, without counting a refusal (for filtering listings). */
  boolean allows(Operation operation, String keyName);

  /**
   * Rewrapping a ciphertext of {@code sourceKey} into {@code targetKey}. Within one key it needs
   * {@code reencrypt} (or both {@code decrypt} and {@code encrypt}) on it; into another key it needs
   * {@code decrypt} on the source and {@code encrypt} on the target, since the data changes hands.
   */
  void checkReEncrypt(String sourceKey, String targetKey);
}

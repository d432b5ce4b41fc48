package io.cipherd.server.security;

import io.cipherd.server.crypto.KeyType;

/**
 * The one place that decides whether the current caller (from {@code api.CallerIdentity}) may use a
 * key. Without an access policy it is {@link #ALLOW_ALL}, which costs nothing per call.
 */
public interface Authorizer {
  /** Allows everything: no access policy is configured. */
  Authorizer ALLOW_ALL =
      new Authorizer() {
        @Override
        public void check(Operation operation, String keyName) {}

        @Override
        public boolean allows(Operation operation, String keyName) {
          return true;
        }

        @Override
        public void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey) {}

        @Override
        public void checkReIndex(String sourceKey, KeyType sourceType) {}
      };

  /** Throws {@link AccessDeniedException} or {@link UnauthenticatedException} unless allowed. */
  void check(Operation operation, String keyName);

  /** Whether the caller may, without counting a refusal (for filtering listings). */
  boolean allows(Operation operation, String keyName);

  /**
   * Rewrapping a ciphertext of {@code sourceKey} whose header names a version of {@code sourceType}
   * ({@link KeyType#LEGACY} for data made before cipherd) into {@code targetKey}, decided before
   * anything is decrypted. Within one key, an authenticated mode needs {@code reencrypt} (or both
   * {@code decrypt} and {@code encrypt}); an unauthenticated one also needs {@code decrypt},
   * because whether its rewrap succeeds tells a tampered ciphertext's padding or bytes apart (a
   * decryption oracle). Into another key it needs {@code decrypt} on the source and {@code encrypt}
   * on the target, since the data changes hands. docs/security.md, "Access policy", has the table.
   */
  void checkReEncrypt(String sourceKey, KeyType sourceType, String targetKey);

  /**
   * Re-indexing a ciphertext of {@code sourceKey} whose header names a version of {@code
   * sourceType} (ReIndex), decided before anything is decrypted: {@code reindex} on the key; an
   * unauthenticated mode also needs {@code decrypt}, because whether its re-index succeeds tells a
   * tampered ciphertext's padding or bytes apart (a decryption oracle). The index key's {@code
   * index} is checked apart.
   */
  void checkReIndex(String sourceKey, KeyType sourceType);

  /**
   * Reading a format-preserving value's mask with {@code keyName} (MaskFormatted): {@code mask}, or
   * {@code decrypt}, which implies it. A refusal names {@code mask}.
   */
  default void checkMask(String keyName) {
    if (!allows(Operation.DECRYPT, keyName)) {
      check(Operation.MASK, keyName);
    }
  }
}

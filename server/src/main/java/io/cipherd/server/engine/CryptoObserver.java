package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;

/**
 * Told about every crypto operation the engine performs, so metrics can count them without the
 * engine knowing about any metrics library. Called on the hot path: implementations must be cheap
 * and must never throw.
 */
public interface CryptoObserver {
  /** Observes nothing. */
  CryptoObserver NONE =
      new CryptoObserver() {
        @Override
        public void succeeded(
            CryptoOperation operation, KeyVersionRef version, int plaintextBytes) {}

        @Override
        public void failed(
            CryptoOperation operation, KeyVersionRef version, RuntimeException error) {}
      };

  /** Tells both observers, {@code first} first. */
  static CryptoObserver both(CryptoObserver first, CryptoObserver second) {
    return new CryptoObserver() {
      @Override
      public void succeeded(CryptoOperation operation, KeyVersionRef version, int plaintextBytes) {
        first.succeeded(operation, version, plaintextBytes);
        second.succeeded(operation, version, plaintextBytes);
      }

      @Override
      public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
        first.failed(operation, version, error);
        second.failed(operation, version, error);
      }
    };
  }

  /**
   * {@code operation} failed before a key version was resolved, e.g. on a ciphertext whose header
   * does not parse.
   */
  default void failedUnresolved(CryptoOperation operation, RuntimeException error) {
    failed(operation, null, error);
  }

  /** {@code operation} with the key version {@code version} handled {@code plaintextBytes}. */
  void succeeded(CryptoOperation operation, KeyVersionRef version, int plaintextBytes);

  /**
   * {@code operation} failed; {@code version} is null when it failed before a key version was
   * resolved.
   */
  void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error);
}

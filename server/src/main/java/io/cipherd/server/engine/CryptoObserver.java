package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;

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
            CryptoOperation operation, EnvelopeHeader header, int plaintextBytes) {}

        @Override
        public void failed(
            CryptoOperation operation, EnvelopeHeader header, RuntimeException error) {}
      };

  /** Tells both observers, {@code first} first. */
  static CryptoObserver both(CryptoObserver first, CryptoObserver second) {
    return new CryptoObserver() {
      @Override
      public void succeeded(CryptoOperation operation, EnvelopeHeader header, int plaintextBytes) {
        first.succeeded(operation, header, plaintextBytes);
        second.succeeded(operation, header, plaintextBytes);
      }

      @Override
      public void failed(CryptoOperation operation, EnvelopeHeader header, RuntimeException error) {
        first.failed(operation, header, error);
        second.failed(operation, header, error);
      }
    };
  }

  /** {@code operation} with the key version {@code header} names handled {@code plaintextBytes}. */
  void succeeded(CryptoOperation operation, EnvelopeHeader header, int plaintextBytes);

  /**
   * {@code operation} failed; {@code header} is null when it failed before a key version was
   * resolved.
   */
  void failed(CryptoOperation operation, EnvelopeHeader header, RuntimeException error);
}

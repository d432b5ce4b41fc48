package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyVersionRef;

/**
 * Told about every crypto operation the engine performs, so metrics can count them without the
 * engine knowing about any metrics library. Called on the hot path: implementations must be cheap
 * and must never throw.
 *
 * <p>A batch or a stream tells its successes in bulk ({@link BatchedObserver}): one call per key
 * version and operation for all the items that succeeded with it, not one per item. Failures are
 * told one by one, as they happen.
 */
public interface CryptoObserver {
  /** Observes nothing. */
  CryptoObserver NONE =
      new CryptoObserver() {
        @Override
        public void succeeded(
            CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {}

        @Override
        public void failed(
            CryptoOperation operation, KeyVersionRef version, RuntimeException error) {}
      };

  /** Tells every observer but {@link #NONE}, in order. */
  static CryptoObserver all(CryptoObserver... observers) {
    CryptoObserver all = NONE;
    for (CryptoObserver observer : observers) {
      if (observer != NONE) {
        all = all == NONE ? observer : both(all, observer);
      }
    }
    return all;
  }

  /** Tells both observers, {@code first} first. */
  static CryptoObserver both(CryptoObserver first, CryptoObserver second) {
    return new CryptoObserver() {
      @Override
      public void succeeded(
          CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes) {
        first.succeeded(operation, version, items, plaintextBytes);
        second.succeeded(operation, version, items, plaintextBytes);
      }

      @Override
      public void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
        first.failed(operation, version, error);
        second.failed(operation, version, error);
      }

      @Override
      public void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
        first.refused(operation, named, error);
        second.refused(operation, named, error);
      }

      @Override
      public CryptoObserver forCall() {
        CryptoObserver boundFirst = first.forCall();
        CryptoObserver boundSecond = second.forCall();
        return boundFirst == first && boundSecond == second ? this : both(boundFirst, boundSecond);
      }
    };
  }

  /**
   * This observer for the work of the call being served on this thread, which may be told later and
   * on another thread (a batch's successes at its end, a stream's when it goes quiet): whatever it
   * reads from the call's gRPC Context (the audit tally) is read now. The default holds nothing of
   * the call.
   */
  default CryptoObserver forCall() {
    return this;
  }

  /**
   * {@code operation} failed before a key version was resolved, e.g. on a ciphertext whose header
   * does not parse.
   */
  default void failedUnresolved(CryptoOperation operation, RuntimeException error) {
    failed(operation, null, error);
  }

  /**
   * {@code operation} named {@code named}, a version that exists, and failed before it could use
   * it: the version is pending destruction ({@code KEY_VERSION_DESTRUCTION_SCHEDULED}), below
   * min_decryption_version ({@code POLICY_DENIED}), or of another mode than the ciphertext says
   * ({@code DECRYPTION_FAILED}). Told only for a caller the access policy allowed, after the
   * version was found, so {@code named} is never a made-up name. The default tells it as a failure
   * before a version was resolved, as such failures were told before this was.
   */
  default void refused(CryptoOperation operation, KeyVersionRef named, RuntimeException error) {
    failed(operation, null, error);
  }

  /** {@code operation} with the key version {@code version} handled {@code plaintextBytes}. */
  default void succeeded(CryptoOperation operation, KeyVersionRef version, int plaintextBytes) {
    succeeded(operation, version, 1, plaintextBytes);
  }

  /**
   * {@code items} operations {@code operation} with the key version {@code version} succeeded,
   * handling {@code plaintextBytes} in all.
   */
  void succeeded(CryptoOperation operation, KeyVersionRef version, long items, long plaintextBytes);

  /**
   * {@code operation} failed; {@code version} is null when it failed before a key version was
   * resolved.
   */
  void failed(CryptoOperation operation, KeyVersionRef version, RuntimeException error);
}

package io.cipherd.server.engine;

import io.cipherd.server.pool.CipherLease;

/**
 * An engine over a lease on the cipher pools ({@link CryptoEngine#lease}); closing counts its
 * encryptions and gives back what it reserved and did not use, tells the observer what it did and
 * returns the leased ciphers to the pools.
 */
public final class LeasedEngine implements AutoCloseable {
  private final CryptoEngine engine;
  private final CipherLease lease;
  private final BatchedObserver observed;

  LeasedEngine(CryptoEngine engine, CipherLease lease, BatchedObserver observed) {
    this.engine = engine;
    this.lease = lease;
    this.observed = observed;
  }

  /** The engine whose operations use the lease. */
  public CryptoEngine engine() {
    return engine;
  }

  /** Returns the leased ciphers to the pools while there is no work; the engine stays usable. */
  public void returnCiphers() {
    report();
    lease.returnAll();
    forgetKeys();
  }

  /**
   * Forgets the key version the lease's encryptions used last, so the next one asks the key cache,
   * counting its encryptions and giving back the reservations they did not use.
   */
  public void forgetKeys() {
    engine.envelopes.forgetKeys();
  }

  /** Tells the observer the successes added up since the last report. */
  public void report() {
    observed.flush();
  }

  @Override
  public void close() {
    try {
      forgetKeys();
      report();
    } finally {
      lease.close();
    }
  }
}

package io.cipherd.server.maintenance;

import io.cipherd.server.usage.UsageLedger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds this replica's usage counts to the key store's totals. The bound on counts: run every
 * interval, totals lag by at most one interval of each replica's traffic, and a replica that dies
 * loses at most that.
 */
public final class UsageMerger {
  private static final Logger LOG = LoggerFactory.getLogger(UsageMerger.class);

  private final UsageLedger ledger;

  public UsageMerger(UsageLedger ledger) {
    this.ledger = ledger;
  }

  /** One merge; the counts of keys the store could not take are kept for the next. */
  public void merge() {
    int failed = ledger.merge();
    if (failed > 0) {
      LOG.warn(
          "usage of {} keys not merged (key store unavailable); kept for the next merge", failed);
    }
  }

  /** A last merge, so a clean shutdown loses no counts; a failure is logged, not thrown. */
  void mergeLast() {
    try {
      ledger.merge();
    } catch (RuntimeException e) {
      LOG.warn("last usage merge failed: {}", e.getMessage());
    }
  }
}

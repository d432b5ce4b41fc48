package io.cipherd.server.ops;

import io.cipherd.server.keys.KeyAdmin;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.UsageLedger;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every interval, adds this replica's usage counts to the key store's totals and then rotates the
 * keys whose policy says they are due (by encryptions or by age). The bound on counts: totals lag
 * by at most one interval of each replica's traffic, and a replica that dies loses at most that.
 */
public final class UsageMerger implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(UsageMerger.class);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cipherd-usage-merge");
            thread.setDaemon(true);
            return thread;
          });
  private final UsageLedger ledger;
  private final KeyStore store;
  private final KeyCache keys;
  private final KeyAdmin admin;

  public UsageMerger(UsageLedger ledger, KeyStore store, KeyCache keys, KeyAdmin admin) {
    this.ledger = ledger;
    this.store = store;
    this.keys = keys;
    this.admin = admin;
  }

  /** Merges and rotates every {@code interval} until closed. */
  public UsageMerger start(Duration interval) {
    scheduler.scheduleWithFixedDelay(
        this::mergeQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One merge, then the due rotations of every key this replica uses or has cached; returns the
   * keys rotated.
   */
  public synchronized int mergeAndRotate() {
    int failed = ledger.merge(store);
    if (failed > 0) {
      LOG.warn(
          "usage of {} keys not merged (key store unavailable); kept for the next merge", failed);
    }
    Set<String> names = new HashSet<>(ledger.usedKeys());
    names.addAll(keys.cachedNames());
    int rotated = 0;
    for (String name : names) {
      try {
        rotated += admin.rotateIfDue(name) > 0 ? 1 : 0;
      } catch (RuntimeException e) {
        LOG.warn("automatic rotation check of key '{}' failed: {}", name, e.getMessage());
      }
    }
    return rotated;
  }

  private void mergeQuietly() {
    try {
      mergeAndRotate();
    } catch (RuntimeException e) {
      LOG.warn("usage merge failed: {}", e.getMessage());
    }
  }

  /** Stops, after a last merge so a clean shutdown loses no counts. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      ledger.merge(store);
    } catch (RuntimeException e) {
      LOG.warn("last usage merge failed: {}", e.getMessage());
    }
  }
}

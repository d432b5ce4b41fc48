package io.cipherd.server.ops;

import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.KeyStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Re-reads cached keys' metadata from a shared store at a fixed interval, so rotations by other
 * replicas are used here within it, and reports the store's reachability to {@link Health}.
 */
public final class KeyRefresher implements AutoCloseable {
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cipherd-key-refresh");
            thread.setDaemon(true);
            return thread;
          });

  private KeyRefresher() {}

  /**
   * Starts refreshing every {@code interval}; the store counts as reachable until a refresh fails.
   */
  public static KeyRefresher start(
      KeyCache keys, KeyStore store, Health health, Duration interval) {
    KeyRefresher refresher = new KeyRefresher();
    health.reportKeyStore(/* reachable= */ true);
    refresher.scheduler.scheduleWithFixedDelay(
        () -> health.reportKeyStore(refresh(keys, store)),
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return refresher;
  }

  /** One refresh; whether every cached key was refreshed and the store answered a listing. */
  static boolean refresh(KeyCache keys, KeyStore store) {
    try {
      // Listing names also probes the store when no key is cached yet.
      return keys.refreshCached() == 0 && store.listKeyNames() != null;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

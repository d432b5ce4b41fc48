package io.cipherd.server.maintenance;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.ops.Health;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every key of a shared store in memory: loads them all on start, then at a fixed interval
 * re-reads cached keys' metadata, so rotations by other replicas are used here within it, and loads
 * the keys and versions added since; reports the store's reachability to {@link Health}.
 */
public final class KeyRefresher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KeyRefresher.class);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cipherd-key-refresh");
            thread.setDaemon(true);
            return thread;
          });

  private KeyRefresher() {}

  /**
   * Loads every key of the store into memory first ({@link KeyCache#preload}), so that from the
   * moment it is ready this replica serves every key from memory alone when the store goes away,
   * not only the keys it happened to use; then starts refreshing every {@code interval}, which also
   * loads keys and versions other replicas add. The store counts as reachable until a refresh
   * fails.
   */
  public static KeyRefresher start(
      KeyCache keys, KeyStore store, Health health, Duration interval) {
    KeyRefresher refresher = new KeyRefresher();
    long started = System.nanoTime();
    boolean loaded = refresh(keys, store);
    LOG.info(
        loaded
            ? "key store: {} keys in memory in {} ms"
            : "key store: {} keys in memory in {} ms; the others load on use or at the next refresh",
        keys.cacheSize(),
        (System.nanoTime() - started) / 1_000_000);
    health.reportKeyStore(/* reachable= */ true);
    refresher.scheduler.scheduleWithFixedDelay(
        () -> health.reportKeyStore(refresh(keys, store)),
        interval.toMillis(),
        interval.toMillis(),
        TimeUnit.MILLISECONDS);
    return refresher;
  }

  /**
   * One refresh: re-reads cached keys' metadata, then loads keys and versions not in memory yet.
   * Whether every cached key was refreshed and the store answered.
   */
  static boolean refresh(KeyCache keys, KeyStore store) {
    try {
      boolean refreshed = keys.refreshCached() == 0;
      // Listing names also probes the store when no key is cached yet.
      keys.preload(store.listKeyNames());
      return refreshed;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

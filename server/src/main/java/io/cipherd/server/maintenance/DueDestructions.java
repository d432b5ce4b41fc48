package io.cipherd.server.maintenance;

import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.LifecycleRules;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the destructions and deletions whose time has come, exactly once across replicas:
 * each key's due state ({@link LifecycleRules#due}) is written with the store's check-and-set, so
 * of the replicas sweeping at once one write wins and erases the bytes; the others lose the race,
 * re-read the key, find nothing due any more and skip it.
 *
 * <p>A sweep reads every key in the store, so the periodic runs sweep at most every {@link
 * #SWEEP_INTERVAL} (pending windows are a day or more: a minute late is on time).
 */
public final class DueDestructions {
  /** The shortest time between two periodic sweeps. */
  public static final Duration SWEEP_INTERVAL = Duration.ofMinutes(1);

  /** Prometheus: {@code cipherd_key_versions_destroyed_total}. */
  public static final String DESTROYED_METER = "cipherd.key.versions.destroyed";

  /** A key that keeps losing races to other writers is left for the next sweep after this many. */
  private static final int MAX_ATTEMPTS = 3;

  private static final Logger LOG = LoggerFactory.getLogger(DueDestructions.class);

  private final KeyStore store;
  private final Clock clock;
  private final Consumer<String> forget;
  private final Counter destroyed;
  private Instant lastSweep = Instant.MIN;

  /**
   * Sweeps {@code store} by {@code clock}; {@code forget} is told each key this replica destroyed
   * versions of, so its cache serves the key's new state at once (the key cache's reload); counts
   * in {@code registry}.
   */
  public DueDestructions(
      KeyStore store, Clock clock, Consumer<String> forget, MeterRegistry registry) {
    this.store = store;
    this.clock = clock;
    this.forget = forget;
    this.destroyed =
        Counter.builder(DESTROYED_METER)
            .description("Key versions whose bytes this replica destroyed when they became due")
            .register(registry);
  }

  /**
   * A sweep, unless one ran less than {@link #SWEEP_INTERVAL} ago; returns what {@link #sweep}
   * does.
   */
  public synchronized int sweepIfDue() {
    if (clock.instant().isBefore(lastSweep.plus(SWEEP_INTERVAL))) {
      return 0;
    }
    return sweep();
  }

  /**
   * Writes what is due of every key; returns how many versions this replica destroyed. One key's
   * failure is logged and skips that key only.
   */
  public synchronized int sweep() {
    lastSweep = clock.instant();
    int count = 0;
    for (String name : store.listKeyNames()) {
      try {
        count += destroyDue(name);
      } catch (RuntimeException e) {
        LOG.warn("due destructions of key '{}' failed: {}", name, e.getMessage());
      }
    }
    return count;
  }

  private int destroyDue(String name) {
    for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      Optional<KeyMetadata> key = store.readKey(name);
      if (key.isEmpty()) {
        return 0;
      }
      LifecycleRules.Due due = LifecycleRules.due(key.get(), clock.instant());
      if (!due.changed()) {
        return 0; // nothing due, or another replica has just done it
      }
      try {
        store.updateLifecycle(key.get(), due.key());
      } catch (ConcurrentKeyUpdateException lost) {
        continue; // re-read: another replica won, or an unrelated write came first
      }
      report(key.get(), due);
      forget.accept(name);
      return due.versionsToErase().size();
    }
    LOG.info("key '{}' kept changing during its due destructions; the next sweep retries", name);
    return 0;
  }

  private void report(KeyMetadata before, LifecycleRules.Due due) {
    for (int version : due.versionsToErase()) {
      LOG.info(
          "destroyed version {} of key '{}': its destruction was due at {}",
          version,
          before.name(),
          due.key().version(version).lifecycle().destroyTime());
    }
    destroyed.increment(due.versionsToErase().size());
    if (due.key().lifecycle().state() == KeyLifecycle.State.DELETED
        && before.lifecycle().state() != KeyLifecycle.State.DELETED) {
      LOG.info("deleted key '{}': every version destroyed; the name stays taken", before.name());
    }
  }
}

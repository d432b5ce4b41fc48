package io.cipherd.server.maintenance;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The periodic key maintenance of a replica: every interval, merges its usage counts into the key
 * store's totals ({@link UsageMerger}), runs the rotations those totals make due ({@link
 * DueRotations}), then the destructions and deletions whose time has come ({@link DueDestructions},
 * at most every {@link DueDestructions#SWEEP_INTERVAL}); on close, one last merge.
 */
public final class KeyMaintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KeyMaintenance.class);

  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cipherd-key-maintenance");
            thread.setDaemon(true);
            return thread;
          });
  private final UsageMerger usage;
  private final DueRotations rotation;
  private final DueDestructions destructions;
  private final Runnable subjectSweep;

  public KeyMaintenance(UsageMerger usage, DueRotations rotation, DueDestructions destructions) {
    this(usage, rotation, destructions, () -> {});
  }

  /**
   * As the other constructor, running {@code subjectSweep} (subject keys moved to their key's
   * current version) after the rotations of each run.
   */
  public KeyMaintenance(
      UsageMerger usage,
      DueRotations rotation,
      DueDestructions destructions,
      Runnable subjectSweep) {
    this.usage = usage;
    this.rotation = rotation;
    this.destructions = destructions;
    this.subjectSweep = subjectSweep;
  }

  /** Runs every {@code interval} until closed. */
  public KeyMaintenance start(Duration interval) {
    scheduler.scheduleWithFixedDelay(
        this::runScheduled, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /**
   * One merge, then the due rotations, then a sweep of the due destructions; returns the keys
   * rotated.
   */
  public synchronized int runNow() {
    usage.merge();
    int rotated = rotation.rotateDueKeys();
    subjectSweep.run();
    destructions.sweep();
    return rotated;
  }

  private synchronized void runScheduled() {
    try {
      usage.merge();
      rotation.rotateDueKeys();
    } catch (RuntimeException e) {
      LOG.warn("usage merge failed: {}", e.getMessage());
    }
    try {
      subjectSweep.run();
    } catch (RuntimeException e) {
      LOG.warn("subject sweep failed: {}", e.getMessage());
    }
    try {
      destructions.sweepIfDue();
    } catch (RuntimeException e) {
      LOG.warn("sweep of due key destructions failed: {}", e.getMessage());
    }
  }

  /** Stops, after a last merge so a clean shutdown loses no counts. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    usage.mergeLast();
  }
}

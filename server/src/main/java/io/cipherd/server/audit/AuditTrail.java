package io.cipherd.server.audit;

import io.cipherd.server.keys.AuditStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The audit trail a server writes its calls' records to: the {@link AuditLog} in its file (or on
 * standard output), the {@link AuditKey} read from the key store, and whether records are required
 * before answers. Records are appended here; with {@code required} the caller waits for each
 * record's future, completed on {@link #releaser()} (a thread per core) so no answer is serialized
 * and sent on the writer's thread.
 */
public final class AuditTrail implements AutoCloseable {
  /** Times how long a record took to become durable, for metrics. */
  public interface Timing {
    Timing NONE = nanos -> {};

    void durableAfter(long nanos);
  }

  private final AuditLog log;
  private final AuditKey key;
  private final boolean required;
  private final Clock clock;
  private final Timing timing;
  private final ExecutorService releaser;
  private final String trailName;

  private AuditTrail(
      AuditLog log, AuditKey key, boolean required, Clock clock, Timing timing, String trailName) {
    this.log = log;
    this.trailName = trailName;
    this.key = key;
    this.required = required;
    this.clock = clock;
    this.timing = timing;
    AtomicInteger next = new AtomicInteger();
    this.releaser =
        Executors.newFixedThreadPool(
            Math.max(2, Runtime.getRuntime().availableProcessors()),
            runnable -> {
              Thread thread =
                  new Thread(runnable, "cipherd-audit-release-" + next.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Opens the trail of {@code config} with the audit key of {@code keyStore} (created there on
   * first use); {@code listener} hears of records written and failed.
   */
  public static AuditTrail open(
      AuditConfig config,
      AuditStore keyStore,
      Clock clock,
      AuditLog.Listener listener,
      Timing timing)
      throws IOException {
    return open(
        config,
        keyStore,
        clock,
        listener,
        timing,
        AuditAnchor.Listener.NONE,
        AuditSink.Listener.NONE);
  }

  /**
   * As {@link #open(AuditConfig, AuditStore, Clock, AuditLog.Listener, Timing)}, the anchor's
   * writes and cuts reported to {@code anchorListener}, and the off-host copy's lines sent and lost
   * to {@code sinkListener}.
   */
  public static AuditTrail open(
      AuditConfig config,
      AuditStore keyStore,
      Clock clock,
      AuditLog.Listener listener,
      Timing timing,
      AuditAnchor.Listener anchorListener,
      AuditSink.Listener sinkListener)
      throws IOException {
    byte[] material = keyStore.auditKeyMaterial();
    AuditKey key;
    try {
      key = new AuditKey(material);
    } finally {
      Arrays.fill(material, (byte) 0);
    }
    AuditAnchor anchor =
        AuditAnchor.open(keyStore, config.trailName(), config.required(), anchorListener);
    AuditSink sink = null;
    AuditLog log;
    try {
      sink = config.sink() == null ? null : config.sink().start(sinkListener);
      log = AuditLog.open(config.file(), key, clock, config.settings(), listener, anchor, sink);
    } catch (IOException | RuntimeException e) {
      try {
        anchor.close();
        if (sink != null) {
          sink.close();
        }
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
      }
      throw e;
    }
    return new AuditTrail(log, key, config.required(), clock, timing, config.trailName());
  }

  /** Queues {@code record}; the future completes on {@link #releaser()} once it is durable. */
  CompletableFuture<Void> append(CallRecord record) {
    long start = System.nanoTime();
    return log.append(record)
        .whenCompleteAsync(
            (done, error) -> {
              if (error == null) {
                timing.durableAfter(System.nanoTime() - start);
              }
            },
            releaser);
  }

  /** Queues {@code record} and does not wait: its failure is only counted. */
  void appendLater(AuditRecord record) {
    long start = System.nanoTime();
    log.append(record).thenRun(() -> timing.durableAfter(System.nanoTime() - start));
  }

  /**
   * Records that the server cancelled the destruction of {@code version} of {@code keyName} because
   * the call {@code requestId} tried to use it and the key's policy sets cancel_destruction_on_use:
   * a {@code system} line, as CancelKeyVersionDestruction; does not wait, its failure only counted.
   */
  public void recordDestructionCancelledOnUse(String keyName, int version, String requestId) {
    appendLater(
        new SystemRecord(
            clock.instant(),
            "CancelKeyVersionDestruction",
            keyName,
            List.of(version),
            "used while pending destruction (cancel_destruction_on_use)",
            requestId));
  }

  /**
   * Writes the erasures {@code records}, queued at once, and waits until they are durable (at most
   * 10 seconds); their receipts, in order. Throws {@link AuditUnavailableException} if they could
   * not be written.
   */
  public List<AuditReceipt> recordErasures(List<ErasureRecord> records) {
    List<CompletableFuture<AuditLog.Placed>> placed =
        records.stream().map(log::appendPlaced).toList();
    try {
      CompletableFuture.allOf(placed.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
      return placed.stream()
          .map(CompletableFuture::join)
          .map(p -> new AuditReceipt(trailName, p.seq(), p.hash()))
          .toList();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof AuditUnavailableException unavailable) {
        throw unavailable;
      }
      throw new AuditUnavailableException("the erasure's audit record could not be written");
    } catch (TimeoutException e) {
      throw new AuditUnavailableException("the erasure's audit record was not written in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AuditUnavailableException("interrupted writing the erasure's audit record");
    }
  }

  /** True while the trail cannot write: see {@link AuditLog#failing()}. */
  boolean failing() {
    return log.failing();
  }

  /** Whether no call may be answered before its record is durable. */
  public boolean required() {
    return required;
  }

  /** The trail's name, under which the key store anchors its head. */
  public String trailName() {
    return trailName;
  }

  /** The key that hashes contexts and MACs checkpoints. */
  public AuditKey key() {
    return key;
  }

  Instant now() {
    return clock.instant();
  }

  Executor releaser() {
    return releaser;
  }

  /** Writes what is queued and a last checkpoint. */
  @Override
  public void close() {
    try {
      log.close();
      releaser.shutdown();
      releaser.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

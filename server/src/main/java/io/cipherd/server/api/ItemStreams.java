package io.cipherd.server.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's item streams as a whole: how many are open per method, how many the server closed
 * because they sat idle, and the one scheduler thread that times every stream's idleness, so an
 * open stream costs a queued task rather than a thread.
 */
public final class ItemStreams implements AutoCloseable {
  /** The item-stream methods, named as gRPC's own call metrics name them. */
  public static final List<String> METHODS =
      List.of("EncryptStream", "DecryptStream", "ReEncryptStream");

  private final Duration idleTimeout;
  private final long idleTimeoutNanos;
  private final ScheduledThreadPoolExecutor scheduler;
  private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> closedIdle = new ConcurrentHashMap<>();

  /** Streams that receive no item for {@code idleTimeout} are closed. */
  public ItemStreams(Duration idleTimeout) {
    if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
      throw new IllegalArgumentException(
          "stream idle timeout must be positive, got " + idleTimeout);
    }
    this.idleTimeout = idleTimeout;
    this.idleTimeoutNanos = idleTimeout.toNanos();
    this.scheduler =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-stream-idle");
              thread.setDaemon(true);
              return thread;
            });
    // A stream that ends cancels its check: without this, each ended stream would stay queued
    // (and reachable, with its call) until its check came due.
    scheduler.setRemoveOnCancelPolicy(true);
    for (String method : METHODS) {
      open.put(method, new AtomicInteger());
      closedIdle.put(method, new LongAdder());
    }
  }

  public Duration idleTimeout() {
    return idleTimeout;
  }

  /** Streams of {@code method} open now. */
  public int open(String method) {
    return open.get(method).get();
  }

  /** Streams of {@code method} the server closed because they sat idle. */
  public long closedIdle(String method) {
    return closedIdle.get(method).sum();
  }

  long idleTimeoutNanos() {
    return idleTimeoutNanos;
  }

  void opened(String method) {
    open.get(method).incrementAndGet();
  }

  void closed(String method, boolean idle) {
    open.get(method).decrementAndGet();
    if (idle) {
      closedIdle.get(method).increment();
    }
  }

  /** Runs {@code check} once after {@code delayNanos} on the shared scheduler; null once closed. */
  ScheduledFuture<?> schedule(Runnable check, long delayNanos) {
    try {
      return scheduler.schedule(check, delayNanos, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException closing) {
      // The server is shutting down, and its own grace period bounds the stream now.
      return null;
    }
  }

  /** Stops the scheduler; streams still open are then no longer timed. */
  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

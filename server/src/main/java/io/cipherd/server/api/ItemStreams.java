package io.cipherd.server.api;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
 * open stream costs a queued task rather than a thread. On shutdown it {@link #drain}s them: each
 * answers what it received and ends with UNAVAILABLE, so its client resumes on another server
 * rather than the drain waiting out its grace period for streams that could run for hours.
 */
public final class ItemStreams implements AutoCloseable {
  /** The item-stream methods, named as gRPC's own call metrics name them. */
  public static final List<String> METHODS =
      List.of(
          "EncryptStream",
          "DecryptStream",
          "ReEncryptStream",
          "EncryptFormattedStream",
          "DecryptFormattedStream",
          "ReEncryptFormattedStream");

  private final Duration idleTimeout;
  private final long idleTimeoutNanos;
  private final ScheduledThreadPoolExecutor scheduler;
  private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
  private final Map<String, LongAdder> closedIdle = new ConcurrentHashMap<>();
  private final Set<ItemStream<?, ?>> running = ConcurrentHashMap.newKeySet();
  private volatile boolean draining;

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

  void opened(ItemStream<?, ?> stream, String method) {
    open.get(method).incrementAndGet();
    running.add(stream);
    if (draining) {
      // Opened as the drain began, after it looked at the others.
      stream.drain();
    }
  }

  void closed(ItemStream<?, ?> stream, String method, boolean idle) {
    running.remove(stream);
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

  /**
   * Ends every open stream, and every stream opened from now on, once it has answered each item it
   * received: with UNAVAILABLE, telling the client to resume after the last reference it received.
   * For the start of a shutdown; returns at once.
   */
  public void drain() {
    draining = true;
    for (ItemStream<?, ?> stream : running) {
      stream.drain();
    }
  }

  /** How a stream ends when idle, after answering every item it received. */
  StreamIdleException idle() {
    return new StreamIdleException(
        "stream idle: no item received for "
            + idleTimeout
            + "; every item received was answered, open a new stream to send more");
  }

  /** How a stream ends when drained, after answering each of the {@code answered} it received. */
  static StatusRuntimeException shuttingDown(long answered) {
    return Status.UNAVAILABLE
        .withDescription(
            "server is shutting down: each of the "
                + answered
                + " items received was answered; resume after the last reference received,"
                + " on a new stream")
        .asRuntimeException();
  }

  /** Stops the scheduler; streams still open are then no longer timed. */
  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

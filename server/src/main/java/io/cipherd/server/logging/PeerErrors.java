package io.cipherd.server.logging;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What remote peers got wrong on the transport, counted by kind instead of logged one by one: a
 * request the transport refused before any service saw it (a header that does not parse, a message
 * frame truncated, compressed without an encoding or over the size limit), and a call its client
 * reset before any answer (HTTP/2 rapid reset). A client can send thousands of these a second, each
 * costing the server nothing but its log line; here each costs a counter increment, and the log
 * gets at most one summary line per interval and concern: WARN on {@value #TRANSPORT_LOGGER} for
 * refused requests, INFO on the access log for resets. The kinds are a fixed set, never a value the
 * peer chose; the totals are {@code cipherd_transport_errors_total{kind}}.
 */
public final class PeerErrors {
  /** What went wrong; {@link #label} is the metric's {@code kind} label. */
  public enum Kind {
    /** A header the transport could not decode: bad {@code grpc-timeout}, {@code -bin} or name. */
    MALFORMED_HEADER("malformed_header"),
    /** A message frame that is truncated, or compressed without a known encoding. */
    MALFORMED_MESSAGE("malformed_message"),
    /** A message over {@code --max-message-bytes}. */
    OVERSIZED_MESSAGE("oversized_message"),
    /** A call its client reset (RST_STREAM) or dropped before the server sent any answer. */
    RESET_BEFORE_ANSWER("reset_before_answer");

    private final String label;

    Kind(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  /** The logger of the refused requests' summary line. */
  public static final String TRANSPORT_LOGGER = "cipherd.transport";

  private static final String METRIC_DESCRIPTION =
      "Requests the transport refused before any service saw them (malformed_header,"
          + " malformed_message, oversized_message) and calls reset by their clients before any"
          + " answer (reset_before_answer)";

  /** How often at most each summary line is written. */
  public static final Duration SUMMARY_INTERVAL = Duration.ofMinutes(1);

  /**
   * The process's: logback builds the filter that counts ({@link TransportErrorLines}), so it
   * cannot be handed an instance.
   */
  public static final PeerErrors GLOBAL = new PeerErrors(SUMMARY_INTERVAL);

  private static final Logger transport = LoggerFactory.getLogger(TRANSPORT_LOGGER);
  private static final Logger access = LoggerFactory.getLogger(AccessLogInterceptor.LOGGER);

  private final Duration interval;
  private final Map<Kind, LongAdder> totals = new EnumMap<>(Kind.class);

  /**
   * The totals the last summary lines reached: a summary reports what the totals gained since.
   * Guarded by {@link #summarize}'s lock.
   */
  private final Map<Kind, Long> summarized = new EnumMap<>(Kind.class);

  private final AtomicBoolean summarizing = new AtomicBoolean();

  /** Writes summaries every {@code interval}, from the first event on. */
  PeerErrors(Duration interval) {
    this.interval = interval;
    for (Kind kind : Kind.values()) {
      totals.put(kind, new LongAdder());
      summarized.put(kind, 0L);
    }
  }

  /** Counts one event; the next summary line reports it. */
  public void count(Kind kind) {
    totals.get(kind).increment();
    if (!summarizing.get() && summarizing.compareAndSet(false, true)) {
      startSummaries();
    }
  }

  /** Events of {@code kind} since the process started; for the metric. */
  public long total(Kind kind) {
    return totals.get(kind).sum();
  }

  /**
   * Adds {@code cipherd_transport_errors_total{kind}} to {@code registry}, read at scrape time: one
   * series per kind, all present from the start.
   */
  public void bindTo(MeterRegistry registry) {
    for (Kind kind : Kind.values()) {
      FunctionCounter.builder("cipherd.transport.errors", this, errors -> errors.total(kind))
          .description(METRIC_DESCRIPTION)
          .tag("kind", kind.label())
          .register(registry);
    }
  }

  /** A daemon thread, started by the first event only: a server nobody abuses never has it. */
  private void startSummaries() {
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            task -> {
              Thread thread = new Thread(task, "cipherd-peer-error-summary");
              thread.setDaemon(true);
              return thread;
            });
    long millis = interval.toMillis();
    timer.scheduleAtFixedRate(this::summarize, millis, millis, TimeUnit.MILLISECONDS);
  }

  /** Writes the summary lines of what was counted since the last ones; nothing if nothing was. */
  synchronized void summarize() {
    StringJoiner refused = new StringJoiner(", ");
    long refusedTotal = 0;
    for (Kind kind : Kind.values()) {
      if (kind == Kind.RESET_BEFORE_ANSWER) {
        continue;
      }
      long n = sinceLastSummary(kind);
      if (n > 0) {
        refused.add(kind.label() + "=" + n);
        refusedTotal += n;
      }
    }
    if (refusedTotal > 0) {
      transport.warn(
          "refused {} malformed requests from remote peers in the last {}s, by kind: {} "
              + "(cipherd_transport_errors_total; not logged one by one)",
          refusedTotal,
          interval.toSeconds(),
          refused);
    }
    long resets = sinceLastSummary(Kind.RESET_BEFORE_ANSWER);
    if (resets > 0) {
      access.info(
          "{} calls reset by their clients before any answer in the last {}s "
              + "(cipherd_transport_errors_total{kind=\"reset_before_answer\"}; no access line each)",
          resets,
          interval.toSeconds());
    }
  }

  /** What {@code kind}'s total gained since the last summary, which now reaches it. */
  private long sinceLastSummary(Kind kind) {
    long total = total(kind);
    return total - summarized.put(kind, total);
  }
}

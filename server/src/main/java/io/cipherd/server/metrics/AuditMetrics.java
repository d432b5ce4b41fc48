package io.cipherd.server.metrics;

import io.cipherd.server.audit.AuditAnchor;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.audit.AuditLog;
import io.cipherd.server.audit.AuditSink;
import io.cipherd.server.audit.AuditTrail;
import io.cipherd.server.keys.AuditStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The audit trail's meters: {@code cipherd_audit_records_total{outcome="written|failed"}} and
 * {@code cipherd_audit_write_seconds}, how long a record took from the call's end to durable on
 * disk (the group commit's write and fsync included); {@code cipherd_audit_anchor_seconds}, each
 * write of the trail's head to the key store, {@code cipherd_audit_anchor_failures_total} and
 * {@code cipherd_audit_trail_cuts_total}, starts on a trail cut short of its anchored head; and the
 * off-host copy's {@code cipherd_audit_sink_records_total{outcome="sent|lost"}} and {@code
 * cipherd_audit_sink_errors_total}. Any failed record is an alert: with {@code --audit-required} it
 * failed its call, without it the call went unaudited.
 */
public final class AuditMetrics
    implements AuditLog.Listener, AuditTrail.Timing, AuditAnchor.Listener, AuditSink.Listener {
  static final String RECORDS = "cipherd.audit.records";
  static final String SINK_RECORDS = "cipherd.audit.sink.records";
  static final String SINK_ERRORS = "cipherd.audit.sink.errors";
  static final String WRITE = "cipherd.audit.write";
  static final String ANCHOR = "cipherd.audit.anchor";
  static final String ANCHOR_FAILURES = "cipherd.audit.anchor.failures";
  static final String CUTS = "cipherd.audit.trail.cuts";

  private static final Duration[] WRITE_BUCKETS = {
    Duration.ofMillis(1),
    Duration.ofMillis(5),
    Duration.ofMillis(25),
    Duration.ofMillis(100),
    Duration.ofMillis(500)
  };

  private final Counter written;
  private final Counter failed;
  private final Timer write;
  private final Timer anchor;
  private final Counter anchorFailures;
  private final Counter cuts;
  private final Counter sinkSent;
  private final Counter sinkLost;
  private final Counter sinkErrors;

  public AuditMetrics(MeterRegistry registry) {
    this.written = records(registry, "written");
    this.failed = records(registry, "failed");
    this.write =
        Timer.builder(WRITE)
            .description("Time from a call's end until its audit record is durable")
            .serviceLevelObjectives(WRITE_BUCKETS)
            .register(registry);
    this.anchor =
        Timer.builder(ANCHOR)
            .description("Time to write the audit trail's head to the key store, per checkpoint")
            .serviceLevelObjectives(WRITE_BUCKETS)
            .register(registry);
    this.anchorFailures =
        Counter.builder(ANCHOR_FAILURES)
            .description(
                "Audit heads that could not be written to the key store (retried with the next)")
            .register(registry);
    this.cuts =
        Counter.builder(CUTS)
            .description(
                "Starts on an audit trail that did not reach its anchored head: lines were removed"
                    + " or rewritten")
            .register(registry);
    this.sinkSent = sinkRecords(registry, "sent");
    this.sinkLost = sinkRecords(registry, "lost");
    this.sinkErrors =
        Counter.builder(SINK_ERRORS)
            .description(
                "Failed connections or writes to the audit sink; what they carried is sent again")
            .register(registry);
  }

  /** Opens the trail {@code config} describes, metered in {@code registry}. */
  public static AuditTrail openTrail(
      AuditConfig config, AuditStore store, Clock clock, MeterRegistry registry) {
    AuditMetrics meters = new AuditMetrics(registry);
    try {
      return AuditTrail.open(config, store, clock, meters, meters, meters, meters);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the audit trail: " + e.getMessage(), e);
    }
  }

  @Override
  public void written(int records) {
    written.increment(records);
  }

  @Override
  public void failed(int records) {
    failed.increment(records);
  }

  @Override
  public void durableAfter(long nanos) {
    write.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void anchored(long nanos) {
    anchor.record(nanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public void anchorFailed() {
    anchorFailures.increment();
  }

  @Override
  public void cut() {
    cuts.increment();
  }

  @Override
  public void sent(long lines) {
    sinkSent.increment(lines);
  }

  @Override
  public void failed() {
    sinkErrors.increment();
  }

  @Override
  public void lost(long lines) {
    sinkLost.increment(lines);
  }

  private static Counter sinkRecords(MeterRegistry registry, String outcome) {
    return Counter.builder(SINK_RECORDS)
        .description(
            "Audit lines sent to the off-host sink (sent), or dropped from its full buffer (lost)")
        .tags("outcome", outcome)
        .register(registry);
  }

  private static Counter records(MeterRegistry registry, String outcome) {
    return Counter.builder(RECORDS)
        .description("Audit records by outcome: written (durable) or failed (never written)")
        .tags("outcome", outcome)
        .register(registry);
  }
}

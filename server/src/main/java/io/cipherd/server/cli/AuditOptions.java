package io.cipherd.server.cli;

import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.audit.AuditSinkAddress;
import io.cipherd.server.audit.AuditSinkConfig;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --audit-*} options; each has a CIPHERD_AUDIT_* variable. Off unless a log is set. */
public final class AuditOptions {
  @Option(
      names = "--audit-log",
      defaultValue = "${env:CIPHERD_AUDIT_LOG}",
      description =
          "Audit trail: a file, or - for standard output; one hash-chained JSON record per call "
              + "(CIPHERD_AUDIT_LOG). Off when not set.")
  String auditLog;

  @Option(
      names = "--audit-required",
      defaultValue = "${env:CIPHERD_AUDIT_REQUIRED:-false}",
      description =
          "Serve no call unaudited: answers wait until their record is durable, and a call whose "
              + "record cannot be written fails with UNAVAILABLE (CIPHERD_AUDIT_REQUIRED).")
  boolean auditRequired;

  @Option(
      names = "--audit-checkpoint-interval",
      defaultValue = "${env:CIPHERD_AUDIT_CHECKPOINT_INTERVAL:-PT1S}",
      description =
          "Longest time between two MACed checkpoints of the audit trail, ISO-8601 "
              + "(CIPHERD_AUDIT_CHECKPOINT_INTERVAL). Default: ${DEFAULT-VALUE}.")
  Duration checkpointInterval;

  @Option(
      names = "--audit-rotate-size",
      defaultValue = "${env:CIPHERD_AUDIT_ROTATE_SIZE:-268435456}",
      description =
          "Size in bytes at which the audit file is set aside and a new one begun, the chain "
              + "continuing (CIPHERD_AUDIT_ROTATE_SIZE). Default: ${DEFAULT-VALUE}.")
  long rotateSize;

  @Option(
      names = "--audit-trail-name",
      defaultValue = "${env:CIPHERD_AUDIT_TRAIL_NAME}",
      description =
          "The audit trail's name, under which the key store anchors its head and which its start "
              + "lines carry; at most 256 bytes, one per server (CIPHERD_AUDIT_TRAIL_NAME). "
              + "Default: <hostname>:<absolute path of --audit-log> (<hostname>:- for standard "
              + "output).")
  String trailName;

  @Option(
      names = "--audit-retain-files",
      defaultValue = "${env:CIPHERD_AUDIT_RETAIN_FILES:-0}",
      description =
          "How many rotated audit files to keep: after a rotation older ones are deleted and the "
              + "anchor's first line moves to the oldest kept; 0 keeps all "
              + "(CIPHERD_AUDIT_RETAIN_FILES). Default: ${DEFAULT-VALUE}.")
  int retainFiles;

  @Option(
      names = "--audit-sink",
      defaultValue = "${env:CIPHERD_AUDIT_SINK}",
      description =
          "Off-host copy of the audit trail: tcp://host:port or unix:/path, sent every line as "
              + "written to the file, in order; with --audit-required a record is durable only "
              + "once the sink has it too (CIPHERD_AUDIT_SINK). Off when not set.")
  String auditSink;

  @Option(
      names = "--audit-sink-buffer",
      defaultValue = "${env:CIPHERD_AUDIT_SINK_BUFFER:-67108864}",
      description =
          "Most bytes of audit lines waiting for the sink; beyond it the oldest are dropped and "
              + "the loss recorded in the file (CIPHERD_AUDIT_SINK_BUFFER). Default: "
              + "${DEFAULT-VALUE}.")
  long sinkBuffer;

  @Option(
      names = "--audit-sink-timeout",
      defaultValue = "${env:CIPHERD_AUDIT_SINK_TIMEOUT:-PT2S}",
      description =
          "How long a connection to the sink, and with --audit-required a record, may wait for "
              + "it, ISO-8601 (CIPHERD_AUDIT_SINK_TIMEOUT). Default: ${DEFAULT-VALUE}.")
  Duration sinkTimeout;

  /** The validated audit settings, or null when no audit log is set. */
  AuditConfig toConfig() {
    if (auditLog == null || auditLog.isBlank()) {
      if (auditRequired) {
        throw new IllegalArgumentException("--audit-required needs --audit-log FILE or -");
      }
      if (auditSink != null && !auditSink.isBlank()) {
        throw new IllegalArgumentException("--audit-sink needs --audit-log FILE or -");
      }
      return null;
    }
    Path file = auditLog.strip().equals("-") ? null : Path.of(auditLog.strip());
    AuditSinkConfig sink =
        auditSink == null || auditSink.isBlank()
            ? null
            : new AuditSinkConfig(AuditSinkAddress.parse(auditSink), sinkBuffer, sinkTimeout);
    return new AuditConfig(
        file,
        auditRequired,
        checkpointInterval,
        rotateSize,
        trailName == null || trailName.isBlank() ? null : trailName.strip(),
        retainFiles,
        sink);
  }
}

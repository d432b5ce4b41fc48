package io.cipherd.server.audit;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Whether and how calls are audited, validated on construction.
 *
 * @param file the audit file; null writes the trail on standard output
 * @param required serve no call whose record cannot be written: a unary or batch answer waits until
 *     its record is durable, a stream's first item until its opening record is
 * @param checkpointInterval longest time between two checkpoints
 * @param rotateBytes size at which the file is set aside and a new one begun
 * @param sink the off-host copy of every line, or null for none
 */
public record AuditConfig(
    Path file,
    boolean required,
    Duration checkpointInterval,
    long rotateBytes,
    AuditSinkConfig sink) {
  public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(1);
  public static final long DEFAULT_ROTATE_BYTES = 256L << 20;

  /** Without an off-host copy. */
  public AuditConfig(Path file, boolean required, Duration checkpointInterval, long rotateBytes) {
    this(file, required, checkpointInterval, rotateBytes, null);
  }

  public AuditConfig {
    if (checkpointInterval == null || checkpointInterval.toMillis() < 10) {
      throw new IllegalArgumentException("audit checkpoint interval must be at least 10 ms");
    }
    if (rotateBytes < 4096) {
      throw new IllegalArgumentException(
          "audit rotate size must be at least 4096 bytes, got " + rotateBytes);
    }
  }

  /** The trail's settings: checkpoints and rotation from here, the rest the writer's defaults. */
  AuditLog.Settings settings() {
    AuditLog.Settings defaults = AuditLog.Settings.DEFAULTS;
    return new AuditLog.Settings(
        defaults.checkpointEvery(),
        checkpointInterval,
        rotateBytes,
        defaults.queueCapacity(),
        /* forceEachGroup= */ required);
  }
}

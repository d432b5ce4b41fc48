package io.cipherd.server.audit;

import io.cipherd.server.keys.AuditHead;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Whether and how calls are audited, validated on construction.
 *
 * @param file the audit file; null writes the trail on standard output
 * @param required serve no call whose record cannot be written: a unary or batch answer waits until
 *     its record is durable, a stream's first item until its opening record is; and refuse to start
 *     on a trail that does not reach its anchored head
 * @param checkpointInterval longest time between two checkpoints
 * @param rotateBytes size at which the file is set aside and a new one begun
 * @param trailName the trail's name, under which the key store anchors its head; null for {@link
 *     #defaultTrailName}
 * @param retainFiles how many rotated files to keep (older ones are deleted after a rotation); 0
 *     keeps all
 * @param sink the off-host copy of every line, or null for none
 */
public record AuditConfig(
    Path file,
    boolean required,
    Duration checkpointInterval,
    long rotateBytes,
    String trailName,
    int retainFiles,
    AuditSinkConfig sink) {
  public static final Duration DEFAULT_CHECKPOINT_INTERVAL = Duration.ofSeconds(1);
  public static final long DEFAULT_ROTATE_BYTES = 256L << 20;

  public AuditConfig {
    if (checkpointInterval == null || checkpointInterval.toMillis() < 10) {
      throw new IllegalArgumentException("audit checkpoint interval must be at least 10 ms");
    }
    if (rotateBytes < 4096) {
      throw new IllegalArgumentException(
          "audit rotate size must be at least 4096 bytes, got " + rotateBytes);
    }
    if (trailName == null || trailName.isBlank()) {
      trailName = defaultTrailName(file);
    }
    int bytes = trailName.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > AuditHead.MAX_TRAIL_BYTES) {
      throw new IllegalArgumentException(
          "audit trail name is " + bytes + " bytes; at most " + AuditHead.MAX_TRAIL_BYTES);
    }
    if (retainFiles < 0) {
      throw new IllegalArgumentException(
          "audit retain files must be 0 (keep all) or more, got " + retainFiles);
    }
  }

  /** With the default trail name, keeping every rotated file, without an off-host copy. */
  public AuditConfig(Path file, boolean required, Duration checkpointInterval, long rotateBytes) {
    this(file, required, checkpointInterval, rotateBytes, null, 0, null);
  }

  /** Without an off-host copy. */
  public AuditConfig(
      Path file,
      boolean required,
      Duration checkpointInterval,
      long rotateBytes,
      String trailName,
      int retainFiles) {
    this(file, required, checkpointInterval, rotateBytes, trailName, retainFiles, null);
  }

  /**
   * {@code <hostname>:<absolute path of file>}, or {@code <hostname>:-} for standard output: unique
   * per server as long as host names are.
   */
  public static String defaultTrailName(Path file) {
    return hostname() + ":" + (file == null ? "-" : file.toAbsolutePath().normalize().toString());
  }

  private static String hostname() {
    String env = System.getenv("HOSTNAME");
    if (env != null && !env.isBlank()) {
      return env.strip();
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
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
        /* forceEachGroup= */ required,
        retainFiles);
  }
}

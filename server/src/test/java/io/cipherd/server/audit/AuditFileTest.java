package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.SettableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rotation never replaces a file: rotations in one millisecond, or after the clock stepped back,
 * each get a name of their own, sorting in the chain's order.
 */
class AuditFileTest {
  private static final AuditKey KEY = new AuditKey(new byte[32]);
  private static final AuditLog.Listener QUIET =
      new AuditLog.Listener() {
        @Override
        public void written(int records) {}

        @Override
        public void failed(int records) {}
      };

  @TempDir Path dir;
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));

  @Test
  void rotationsInOneMillisecond_keepEveryFile() throws Exception {
    Path file = dir.resolve("audit.log");
    // The clock never moves: every rotation happens in the same millisecond.
    write(file, 12);

    List<Path> files = trail(file);
    assertThat(files).hasSizeGreaterThan(3);
    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, files.toArray(Path[]::new));
    assertThat(result.problem()).isNull();
    assertThat(result.calls()).isEqualTo(12);
  }

  @Test
  void aClockSteppingBack_neitherReplacesNorMisordersAFile() throws Exception {
    Path file = dir.resolve("audit.log");
    clock.advance(Duration.ofHours(1));
    write(file, 6);
    clock.advance(Duration.ofHours(-2)); // NTP stepped the clock back
    write(file, 6);

    List<Path> files = trail(file);
    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, files.toArray(Path[]::new));
    assertThat(result.problem()).isNull();
    assertThat(result.calls()).isEqualTo(12);
  }

  @Test
  void aNameThatExists_isNeverReplaced() throws Exception {
    Path file = dir.resolve("audit.log");
    // Someone's file already has the name the next rotation would take.
    Path squatter = dir.resolve("audit.log.20261124T080000.000Z");
    Files.writeString(squatter, "not the trail's\n");
    write(file, 12);

    assertThat(Files.readString(squatter)).isEqualTo("not the trail's\n");
    List<Path> files = trail(file);
    files.remove(squatter);
    assertThat(AuditTrailVerifier.verify(KEY, files.toArray(Path[]::new)).calls()).isEqualTo(12);
  }

  private void write(Path file, int calls) throws Exception {
    AuditLog.Settings settings = new AuditLog.Settings(100, Duration.ofDays(1), 2_000, 1024);
    try (AuditLog trail = AuditLog.open(file, KEY, clock, settings, QUIET)) {
      for (int i = 0; i < calls; i++) {
        trail.append(AuditRecordBudget.versions(clock.instant(), KEY)).get(10, TimeUnit.SECONDS);
      }
    }
  }

  /** The rotated files in name order (as the verifiers take them), then the live one. */
  private List<Path> trail(Path file) throws Exception {
    List<Path> files = new ArrayList<>();
    try (var listing = Files.list(dir)) {
      listing
          .filter(p -> p.getFileName().toString().startsWith("audit.log."))
          .sorted()
          .forEach(files::add);
    }
    files.add(file);
    return files;
  }
}

package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.SettableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash at any byte of a write never keeps the trail from starting again: whatever its last line
 * (whole, cut short, or longer than any read-back window), a restart chains over it, and the
 * verifier counts a cut line as torn, never as a broken chain.
 */
class AuditTailTest {
  private static final AuditKey KEY = new AuditKey(new byte[32]);
  private static final AuditLog.Listener QUIET =
      new AuditLog.Listener() {
        @Override
        public void written(int records) {}

        @Override
        public void failed(int records) {}
      };

  /** Forced only at checkpoints, one every two records and never by time. */
  private static final AuditLog.Settings SETTINGS =
      new AuditLog.Settings(2, Duration.ofDays(365), 1L << 30, 1024, false);

  @TempDir Path dir;
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));

  @Test
  void aCrashAtEveryByteOfTheLastRecord_restartsAndVerifies() throws Exception {
    Path file = dir.resolve("audit.log");
    byte[] trail = trailEndingWith(file, AuditRecordBudget.refusedKeys(clock.instant(), KEY));
    int lastStart = lineStart(trail, trail.length - 1);
    String last = new String(trail, lastStart, trail.length - lastStart, StandardCharsets.UTF_8);
    assertThat(last).startsWith("{\"type\":\"call\"").endsWith("\n");

    for (int cut = lastStart; cut < trail.length; cut++) {
      Path copy = dir.resolve("cut.log");
      Files.write(copy, Arrays.copyOf(trail, cut));
      try (AuditLog restarted = AuditLog.open(copy, KEY, clock, SETTINGS, QUIET)) {
        restarted
            .append(AuditRecordBudget.versions(clock.instant(), KEY))
            .get(10, TimeUnit.SECONDS);
      }

      AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, copy);
      // Cut at the line's start: it is gone; cut before its newline only: it is whole.
      boolean whole = cut == trail.length - 1;
      boolean torn = cut != lastStart && !whole;
      assertThat(result.problem()).as("cut at byte %d", cut).isNull();
      assertThat(result.torn()).as("cut at byte %d", cut).isEqualTo(torn ? 1 : 0);
      assertThat(result.calls()).as("cut at byte %d", cut).isEqualTo(2 + (whole ? 1 : 0) + 1);
      Files.delete(copy);
    }
  }

  @Test
  void aLastLineLongerThanAnyWindow_isReadBackToItsStart() throws Exception {
    // A record as a server before the record budget could write: 5,000 versions, nearly 4 times the
    // 64 KiB the reader once looked back over.
    List<ItemTally.VersionOutcomes> versions = new ArrayList<>();
    for (int version = 1; version <= 5000; version++) {
      versions.add(new ItemTally.VersionOutcomes("orders", version, Map.of("ok", 1L)));
    }
    CallRecord huge =
        CallRecord.builder(clock.instant(), "req")
            .caller("billing")
            .callerVia("token")
            .peer("127.0.0.1:1")
            .method("cipherd.v1.CryptoService/DecryptBatch")
            .keyName("orders")
            .items(5000)
            .versions(versions)
            .status("OK")
            .build();
    Path file = dir.resolve("audit.log");
    byte[] trail = trailEndingWith(file, huge);
    int lastStart = lineStart(trail, trail.length - 1);
    assertThat(trail.length - lastStart).isGreaterThan(3 * (1 << 16));

    for (int cut :
        new int[] {trail.length, trail.length - 1, trail.length - 70_000, lastStart + 5}) {
      Path copy = dir.resolve("cut.log");
      Files.write(copy, Arrays.copyOf(trail, cut));
      try (AuditLog restarted = AuditLog.open(copy, KEY, clock, SETTINGS, QUIET)) {
        restarted
            .append(AuditRecordBudget.versions(clock.instant(), KEY))
            .get(10, TimeUnit.SECONDS);
      }
      AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, copy);
      assertThat(result.problem()).as("cut at byte %d", cut).isNull();
      assertThat(result.torn()).as("cut at byte %d", cut).isEqualTo(cut < trail.length - 1 ? 1 : 0);
      Files.delete(copy);
    }
  }

  @Test
  void aRestartThatCrashedAfterEndingATornLine_stillStarts() throws Exception {
    Path file = dir.resolve("audit.log");
    byte[] trail = trailEndingWith(file, AuditRecordBudget.versions(clock.instant(), KEY));
    // Cut mid-record, then ended with the newline a restart adds before it crashed again.
    byte[] cut = Arrays.copyOf(trail, trail.length - 100);
    Path copy = dir.resolve("cut.log");
    Files.write(copy, cut);
    Files.write(copy, new byte[] {'\n'}, StandardOpenOption.APPEND);
    try (AuditLog restarted = AuditLog.open(copy, KEY, clock, SETTINGS, QUIET)) {
      restarted.append(AuditRecordBudget.versions(clock.instant(), KEY)).get(10, TimeUnit.SECONDS);
    }
    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, copy);
    assertThat(result.problem()).isNull();
    assertThat(result.torn()).isEqualTo(1);
  }

  /**
   * Writes a real trail with the real writer: two records and their checkpoint, then {@code last},
   * after the last checkpoint; returns the file's bytes as a crash right after {@code last} left
   * them.
   */
  private byte[] trailEndingWith(Path file, CallRecord last) throws Exception {
    try (AuditLog trail = AuditLog.open(file, KEY, clock, SETTINGS, QUIET)) {
      trail.append(AuditRecordBudget.versions(clock.instant(), KEY)).get(10, TimeUnit.SECONDS);
      trail.append(AuditRecordBudget.refusedKeys(clock.instant(), KEY)).get(10, TimeUnit.SECONDS);
      trail.append(last).get(10, TimeUnit.SECONDS);
      return Files.readAllBytes(file);
    }
  }

  /** Where the line holding byte {@code at} starts. */
  private static int lineStart(byte[] bytes, int at) {
    int start = at;
    while (start > 0 && bytes[start - 1] != '\n') {
      start--;
    }
    return start;
  }
}

package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.SettableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The audit trail's chain holds over writes, restarts and rotations, and shows every tampering. */
class AuditLogTest {
  private static final AuditKey KEY = new AuditKey(new byte[32]);
  private static final AuditKey OTHER_KEY = new AuditKey(filled(32, (byte) 7));

  @TempDir Path dir;
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));
  private final AtomicInteger written = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AuditLog.Listener listener =
      new AuditLog.Listener() {
        @Override
        public void written(int records) {
          written.addAndGet(records);
        }

        @Override
        public void failed(int records) {
          failed.addAndGet(records);
        }
      };

  @Test
  void records_areChained_checkpointed_andAccountForEveryItem() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(3, 1 << 20), 7);

    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, file);
    assertThat(result.problem()).isNull();
    assertThat(result.calls()).isEqualTo(7);
    assertThat(result.checkpoints()).isGreaterThanOrEqualTo(3);
    assertThat(result.uncheckpointed()).isZero();
    assertThat(written.get()).isEqualTo(7);

    JsonObject call =
        lines(file).stream()
            .filter(l -> l.contains("\"call\""))
            .findFirst()
            .map(l -> JsonParser.parseString(l).getAsJsonObject())
            .orElseThrow();
    assertThat(call.get("items").getAsLong()).isEqualTo(4096);
    long accounted = 0;
    for (var version : call.getAsJsonArray("versions")) {
      for (var outcome : version.getAsJsonObject().getAsJsonObject("outcomes").entrySet()) {
        accounted += outcome.getValue().getAsLong();
      }
    }
    assertThat(accounted).isEqualTo(4096);
    assertThat(call.get("context_hash").getAsString()).startsWith("hmac-sha256:");
    assertThat(Files.readString(file)).doesNotContain("the context itself");
  }

  @Test
  void anEditedRecord_isFound() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 1 << 20), 5);
    List<String> lines = lines(file);
    int third = indexOfCall(lines, 2);
    lines.set(third, lines.get(third).replace("\"ok\":4000", "\"ok\":3999"));
    Files.write(file, lines, StandardCharsets.UTF_8);

    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, file);
    assertThat(result.problem()).startsWith("audit.log:" + (third + 1) + ": altered");
  }

  @Test
  void aRemovedRecord_isFound() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 1 << 20), 5);
    List<String> lines = lines(file);
    int second = indexOfCall(lines, 1);
    lines.remove(second);
    Files.write(file, lines, StandardCharsets.UTF_8);

    assertThat(AuditTrailVerifier.verify(KEY, file).problem())
        .contains("audit.log:" + (second + 1));
  }

  @Test
  void reorderedRecords_areFound() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 1 << 20), 5);
    List<String> lines = lines(file);
    int second = indexOfCall(lines, 1);
    Collections.swap(lines, second, second + 1);
    Files.write(file, lines, StandardCharsets.UTF_8);

    assertThat(AuditTrailVerifier.verify(KEY, file).problem())
        .contains("audit.log:" + (second + 1));
  }

  @Test
  void aConsistentlyRewrittenLog_failsItsCheckpointMac_underTheRealKey() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(2, 1 << 20), 4);

    // A forger without the audit key writes a whole new chain with their own key.
    Path forged = dir.resolve("forged.log");
    try (AuditLog trail = AuditLog.open(forged, OTHER_KEY, clock, settings(2, 1 << 20), listener)) {
      for (int i = 0; i < 4; i++) {
        trail.append(call(i)).get(10, TimeUnit.SECONDS);
      }
    }

    assertThat(AuditTrailVerifier.verify(KEY, file).intact()).isTrue();
    assertThat(AuditTrailVerifier.verify(KEY, forged).problem()).contains("fails its MAC");
  }

  @Test
  void aRestart_continuesTheChainInTheSameFile() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 1 << 20), 3);
    writeCalls(file, settings(100, 1 << 20), 3);

    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, file);
    assertThat(result.problem()).isNull();
    assertThat(result.calls()).isEqualTo(6);
    assertThat(lines(file)).anyMatch(l -> l.contains("\"why\":\"restart\""));
  }

  @Test
  void aTornLastLine_isChainedOver_andTheLogStaysVerifiable() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 1 << 20), 2);
    Files.writeString(file, "{\"type\":\"call\",\"seq\":9", StandardOpenOption.APPEND);
    writeCalls(file, settings(100, 1 << 20), 2);

    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, file);
    assertThat(result.problem()).isNull();
    assertThat(result.torn()).isEqualTo(1);
    assertThat(result.calls()).isEqualTo(4);
  }

  @Test
  void rotation_keepsTheChainAcrossFiles() throws Exception {
    Path file = dir.resolve("audit.log");
    writeCalls(file, settings(100, 2_000), 12);

    List<Path> files = new ArrayList<>();
    try (var listing = Files.list(dir)) {
      listing
          .filter(p -> p.getFileName().toString().startsWith("audit.log."))
          .sorted()
          .forEach(files::add);
    }
    files.add(file);
    assertThat(files).hasSizeGreaterThan(2);

    AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, files.toArray(Path[]::new));
    assertThat(result.problem()).isNull();
    assertThat(result.calls()).isEqualTo(12);
    // Leaving out a middle file breaks the chain where it was.
    List<Path> gap = new ArrayList<>(files);
    gap.remove(1);
    assertThat(AuditTrailVerifier.verify(KEY, gap.toArray(Path[]::new)).intact()).isFalse();
  }

  @Test
  void anUnwritableFile_refusesToOpen() {
    assertThatThrownBy(
            () ->
                AuditLog.open(
                    Path.of("/dev/full"), KEY, clock, AuditLog.Settings.DEFAULTS, listener))
        .isInstanceOf(IOException.class);
  }

  @Test
  void aRecordAfterClose_failsItsFuture() throws Exception {
    AuditLog trail =
        AuditLog.open(dir.resolve("a.log"), KEY, clock, AuditLog.Settings.DEFAULTS, listener);
    trail.close();

    CompletableFuture<Void> late = trail.append(call(1));
    assertThat(late).isCompletedExceptionally();
    assertThat(failed.get()).isEqualTo(1);
  }

  private AuditLog.Settings settings(int checkpointEvery, long rotateBytes) {
    return new AuditLog.Settings(checkpointEvery, Duration.ofHours(1), rotateBytes, 1024);
  }

  private void writeCalls(Path file, AuditLog.Settings settings, int count) throws Exception {
    try (AuditLog trail = AuditLog.open(file, KEY, clock, settings, listener)) {
      for (int i = 0; i < count; i++) {
        // One at a time, so groups hold one record and the rotation size is reached between them.
        trail.append(call(i)).get(10, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(1));
      }
    }
  }

  private CallRecord call(int i) {
    ItemTally tally = new ItemTally();
    tally.add("orders", 3, "ok", 4000);
    tally.add("orders", 2, "ok", 90);
    tally.add("orders", 2, "DECRYPTION_FAILED", 5);
    tally.add("orders", ItemTally.NO_VERSION, "INVALID_CIPHERTEXT", 1);
    return CallRecord.builder(clock.instant(), "req-" + i)
        .caller("billing")
        .callerVia("token")
        .peer("127.0.0.1:40000")
        .method("cipherd.v1.CryptoService/ReEncryptBatch")
        .keyName("orders")
        .items(tally.items())
        .versions(tally.snapshot())
        .status("OK")
        .contextHash(KEY.hashContext("the context itself".getBytes(StandardCharsets.UTF_8)))
        .build();
  }

  private static List<String> lines(Path file) throws IOException {
    return new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /** The index of the {@code n}th call line (0-based). */
  private static int indexOfCall(List<String> lines, int n) {
    int seen = 0;
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).startsWith("{\"type\":\"call\"") && seen++ == n) {
        return i;
      }
    }
    throw new AssertionError("no call line " + n);
  }

  private static byte[] filled(int length, byte value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, value);
    return bytes;
  }
}

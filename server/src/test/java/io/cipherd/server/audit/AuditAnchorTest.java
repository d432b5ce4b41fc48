package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.SettableClock;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trail's anchor in the key store: written at checkpoints and shutdown, checked at start (a
 * file cut short of its head refuses to start under --audit-required and is recorded loudly
 * otherwise), moved by rotation and retention.
 */
class AuditAnchorTest {
  private static final AuditKey KEY = new AuditKey(new byte[32]);
  private static final String TRAIL = "test-host:/var/log/cipherd/audit.log";

  @TempDir Path dir;
  private final InMemoryKeyStore store = new InMemoryKeyStore();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-26T02:00:00Z"));
  private final AtomicInteger cuts = new AtomicInteger();
  private final AtomicInteger anchored = new AtomicInteger();
  private final AtomicInteger anchorFailures = new AtomicInteger();
  private final AuditAnchor.Listener anchorListener =
      new AuditAnchor.Listener() {
        @Override
        public void anchored(long nanos) {
          anchored.incrementAndGet();
        }

        @Override
        public void anchorFailed() {
          anchorFailures.incrementAndGet();
        }

        @Override
        public void cut() {
          cuts.incrementAndGet();
        }
      };
  private static final AuditLog.Listener QUIET =
      new AuditLog.Listener() {
        @Override
        public void written(int records) {}

        @Override
        public void failed(int records) {}
      };

  @Test
  void close_anchorsTheLastCheckpoint_andStartLinesNameTheTrail() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, false, settings(3, 1 << 20, 0), 7);

    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    List<String> lines = Files.readAllLines(file);
    String last = lines.get(lines.size() - 1);
    assertThat(json(last).get("type").getAsString()).isEqualTo("checkpoint");
    assertThat(head.seq()).isEqualTo(json(last).get("seq").getAsLong());
    assertThat(head.hash()).isEqualTo(sha256(last));
    assertThat(head.time()).isEqualTo(json(last).get("time").getAsString());
    assertThat(head.offset()).isEqualTo(Files.size(file) - last.length() - 1);
    assertThat(head.firstSeq()).isZero();
    assertThat(head.firstHash()).isEqualTo(sha256(lines.get(0)));
    assertThat(head.files()).containsExactly(new AuditHead.TrailFile("audit.log", 0, head.seq()));
    assertThat(json(lines.get(0)).get("trail").getAsString()).isEqualTo(TRAIL);
    assertThat(anchored.get()).isGreaterThanOrEqualTo(1);
  }

  @Test
  void restartOnAnIntactTrail_isNoCut() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, true, settings(3, 1 << 20, 0), 5);
    write(file, true, settings(3, 1 << 20, 0), 5);

    JsonObject restart =
        Files.readAllLines(file).stream()
            .map(AuditAnchorTest::json)
            .filter(l -> l.get("type").getAsString().equals("start"))
            .toList()
            .get(1);
    assertThat(restart.get("why").getAsString()).isEqualTo("restart");
    assertThat(restart.has("cut")).isFalse();
    assertThat(cuts.get()).isZero();
    assertThat(AuditTrailVerifier.verify(KEY, file).problem()).isNull();
  }

  @Test
  void aFileCutBeforeItsHead_underAuditRequired_refusesToStart_andIsLeftAsItIs() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, true, settings(3, 1 << 20, 0), 10);
    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    long keptSeq = cutAfterFirstCheckpoint(file);
    byte[] cutFile = Files.readAllBytes(file);

    assertThatThrownBy(() -> write(file, true, settings(3, 1 << 20, 0), 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("does not reach the head its key store anchors (seq " + head.seq())
        .hasMessageContaining("ends at seq " + keptSeq)
        .hasMessageContaining("--audit-required");
    assertThat(Files.readAllBytes(file)).isEqualTo(cutFile);
    assertThat(store.readAuditHead(TRAIL)).contains(head);
  }

  @Test
  void aFileCutBeforeItsHead_withoutAuditRequired_startsAndRecordsTheCut() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, false, settings(3, 1 << 20, 0), 10);
    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    long keptSeq = cutAfterFirstCheckpoint(file);

    write(file, false, settings(3, 1 << 20, 0), 2);

    JsonObject restart = json(Files.readAllLines(file).get((int) keptSeq + 1));
    assertThat(restart.get("type").getAsString()).isEqualTo("start");
    JsonObject cut = restart.getAsJsonObject("cut");
    assertThat(cut.get("anchored_seq").getAsLong()).isEqualTo(head.seq());
    assertThat(cut.get("anchored_hash").getAsString()).isEqualTo(head.hash());
    assertThat(cut.get("found_seq").getAsLong()).isEqualTo(keptSeq);
    assertThat(cuts.get()).isEqualTo(1);
    // The anchor moved on with the new chain: its head is the new last checkpoint.
    AuditHead now = store.readAuditHead(TRAIL).orElseThrow();
    List<String> lines = Files.readAllLines(file);
    assertThat(now.hash()).isEqualTo(sha256(lines.get(lines.size() - 1)));
  }

  @Test
  void aRewrittenHeadLine_isACut() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, false, settings(3, 1 << 20, 0), 4);
    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    List<String> lines = new ArrayList<>(Files.readAllLines(file));
    String last = lines.remove(lines.size() - 1);
    lines.add(last.replace("\"time\":\"", "\"time\":\"1"));
    Files.write(file, lines);

    write(file, false, settings(3, 1 << 20, 0), 1);

    JsonObject restart = json(Files.readAllLines(file).get((int) head.seq() + 1));
    assertThat(restart.getAsJsonObject("cut").get("found_seq").getAsLong()).isEqualTo(head.seq());
    assertThat(cuts.get()).isEqualTo(1);
  }

  @Test
  void aRotationTheAnchorMissed_isFoundInTheRotatedFile() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, true, settings(3, 1 << 20, 0), 4);
    Files.move(file, dir.resolve("audit.log.20261126T020000.000Z"));

    write(file, true, settings(3, 1 << 20, 0), 1);

    assertThat(cuts.get()).isZero();
    assertThat(json(Files.readAllLines(file).get(0)).has("cut")).isFalse();
  }

  @Test
  void rotation_listsTheFiles_andRetentionDeletesTheOldest_movingTheFirstLine() throws Exception {
    Path file = dir.resolve("audit.log");
    write(file, false, settings(1000, 4096, 2), 80);

    List<Path> rotated = rotatedFiles();
    assertThat(rotated).hasSize(2);
    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    List<String> names = new ArrayList<>();
    rotated.forEach(p -> names.add(p.getFileName().toString()));
    names.add("audit.log");
    assertThat(head.files().stream().map(AuditHead.TrailFile::name).toList())
        .containsExactlyElementsOf(names);
    String oldestFirst = Files.readAllLines(rotated.get(0)).get(0);
    assertThat(head.firstSeq()).isEqualTo(json(oldestFirst).get("seq").getAsLong()).isPositive();
    assertThat(head.firstHash()).isEqualTo(sha256(oldestFirst));
    for (int i = 0; i < rotated.size(); i++) {
      List<String> lines = Files.readAllLines(rotated.get(i));
      assertThat(head.files().get(i).firstSeq())
          .isEqualTo(json(lines.get(0)).get("seq").getAsLong());
      assertThat(head.files().get(i).lastSeq())
          .isEqualTo(json(lines.get(lines.size() - 1)).get("seq").getAsLong());
    }
    assertThat(head.files().get(2).lastSeq()).isEqualTo(head.seq());
    // What is kept still verifies as one chain from the anchored first line.
    List<Path> kept = new ArrayList<>(rotated);
    kept.add(file);
    assertThat(AuditTrailVerifier.verify(KEY, kept.toArray(Path[]::new)).problem()).isNull();
  }

  @Test
  void writesFailingOnAFullDisk_neverAnchorAHeadTheFileLacks() throws Exception {
    assumeTrue(
        "root".equals(System.getProperty("user.name")),
        "mounting a tmpfs to fill needs root (CI runs as root)");
    Path tmpfs = Files.createDirectory(dir.resolve("full"));
    run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", tmpfs.toString());
    try {
      Path file = tmpfs.resolve("audit.log");
      Path filler = tmpfs.resolve("filler");
      AuditAnchor anchor = AuditAnchor.open(store, TRAIL, false, anchorListener);
      int failures = 0;
      try (AuditLog trail =
          AuditLog.open(file, KEY, clock, settings(1, 1 << 20, 0), QUIET, anchor, null)) {
        append(trail, 0);
        fill(filler);
        // Until the writes fail (the file's last page may hold a few more lines), and a few more.
        for (int i = 1; i <= 100 && failures < 3; i++) {
          try {
            append(trail, i);
          } catch (ExecutionException expected) {
            failures++;
          }
        }
        Files.delete(filler);
        for (int i = 101; i <= 103; i++) {
          append(trail, i);
        }
        Thread.sleep(200); // lets the anchor thread write what the writer posted
        assertAnchoredHeadIsInTheFile(file);
      }
      assertThat(failures).isPositive();
      assertAnchoredHeadIsInTheFile(file);
    } finally {
      run("umount", tmpfs.toString());
    }
  }

  private void assertAnchoredHeadIsInTheFile(Path file) throws IOException {
    AuditHead head = store.readAuditHead(TRAIL).orElseThrow();
    TrailLines.Line line = TrailLines.find(file, head.seq());
    assertThat(line).as("the file holds the anchored seq %d", head.seq()).isNotNull();
    assertThat(line.hash()).isEqualTo(head.hash());
  }

  private void append(AuditLog trail, int i) throws Exception {
    trail
        .append(
            new SystemRecord(
                clock.instant(),
                "CancelKeyVersionDestruction",
                "orders",
                List.of(i + 1),
                "a record " + "x".repeat(100),
                "req-" + i))
        .get(10, TimeUnit.SECONDS);
    clock.advance(Duration.ofMillis(1));
  }

  private static void fill(Path filler) {
    byte[] block = new byte[512];
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
        out.flush();
      }
    } catch (IOException full) {
      // No space left: what we wanted.
    }
  }

  private static void run(String... command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
      throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
    }
  }

  @Test
  void twoWritersOfOneTrail_oneWinsEachCheckAndSet_andTheLoserSaysSo() throws Exception {
    AuditHead first = head(5);
    assertThat(store.writeAuditHead(null, first)).isTrue();
    assertThat(store.writeAuditHead(null, head(6))).isFalse();
    assertThat(store.writeAuditHead(first, head(7))).isTrue();
    assertThat(store.writeAuditHead(first, head(8))).isFalse();
    assertThat(store.readAuditHead(TRAIL).orElseThrow().seq()).isEqualTo(7);
  }

  private AuditHead head(long seq) {
    return new AuditHead(
        TRAIL,
        seq,
        "a".repeat(64),
        "2026-11-26T02:00:00Z",
        100,
        0,
        "b".repeat(64),
        List.of(new AuditHead.TrailFile("audit.log", 0, seq)),
        Instant.parse("2026-11-26T02:00:01Z"));
  }

  /** Cuts the file right after its first checkpoint; returns that checkpoint's seq. */
  private static long cutAfterFirstCheckpoint(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    List<String> kept = new ArrayList<>();
    for (String line : lines) {
      kept.add(line);
      if (json(line).get("type").getAsString().equals("checkpoint")) {
        break;
      }
    }
    Files.write(file, kept);
    return json(kept.get(kept.size() - 1)).get("seq").getAsLong();
  }

  private List<Path> rotatedFiles() throws IOException {
    try (Stream<Path> listing = Files.list(dir)) {
      return listing
          .filter(p -> p.getFileName().toString().startsWith("audit.log."))
          .sorted()
          .toList();
    }
  }

  private void write(Path file, boolean required, AuditLog.Settings settings, int count)
      throws Exception {
    AuditAnchor anchor = AuditAnchor.open(store, TRAIL, required, anchorListener);
    AuditLog trail;
    try {
      trail = AuditLog.open(file, KEY, clock, settings, QUIET, anchor, null);
    } catch (IOException | RuntimeException e) {
      anchor.close();
      throw e;
    }
    try (trail) {
      for (int i = 0; i < count; i++) {
        trail
            .append(
                new SystemRecord(
                    clock.instant(),
                    "CancelKeyVersionDestruction",
                    "orders",
                    List.of(i + 1),
                    "a record " + "x".repeat(100),
                    "req-" + i))
            .get(10, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(1));
      }
    }
  }

  private static AuditLog.Settings settings(int checkpointEvery, long rotateBytes, int retain) {
    return new AuditLog.Settings(
        checkpointEvery, Duration.ofHours(1), rotateBytes, 1024, true, retain);
  }

  private static JsonObject json(String line) {
    return JsonParser.parseString(line).getAsJsonObject();
  }

  private static String sha256(String line) {
    return AuditChain.hash(line.getBytes(StandardCharsets.UTF_8));
  }
}

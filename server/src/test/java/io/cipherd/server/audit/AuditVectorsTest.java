package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.SettableClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The audit vectors in {@code proto/testdata/audit/} that every verifier runs (cipherctl, the
 * Python client): the writer must still produce the intact logs byte for byte, and this verifier
 * must reach each case's expected verdict. {@code -Dcipherd.writeAuditVectors=true} rewrites the
 * files after a deliberate format change.
 */
class AuditVectorsTest {
  private static final byte[] KEY_BYTES =
      HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
  private static final AuditKey KEY = new AuditKey(KEY_BYTES);
  private static final AuditLog.Listener QUIET =
      new AuditLog.Listener() {
        @Override
        public void written(int records) {}

        @Override
        public void failed(int records) {}
      };

  @TempDir Path dir;

  @Test
  void theWriter_producesTheVectors_andTheVerifier_reachesEveryVerdict() throws Exception {
    Path vectors = Path.of(System.getProperty("cipherd.protoTestdata"), "audit");
    List<Path> made = make();
    if (Boolean.getBoolean("cipherd.writeAuditVectors")) {
      Files.createDirectories(vectors);
      for (Path file : made) {
        Files.copy(file, vectors.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    for (Path file : made) {
      assertThat(file)
          .as(file.getFileName().toString())
          .hasSameBinaryContentAs(vectors.resolve(file.getFileName()));
    }

    JsonObject spec =
        JsonParser.parseString(Files.readString(vectors.resolve("audit.json"))).getAsJsonObject();
    assertThat(spec.get("audit_key_hex").getAsString())
        .isEqualTo(HexFormat.of().formatHex(KEY_BYTES));
    for (JsonElement element : spec.getAsJsonArray("cases")) {
      JsonObject c = element.getAsJsonObject();
      List<Path> files = new ArrayList<>();
      for (JsonElement name : c.getAsJsonArray("files")) {
        files.add(vectors.resolve(name.getAsString()));
      }
      JsonObject head =
          c.has("head")
              ? JsonParser.parseString(
                      Files.readString(vectors.resolve(c.get("head").getAsString())))
                  .getAsJsonObject()
              : null;
      AuditTrailVerifier.Result result =
          AuditTrailVerifier.verify(KEY, head, files.toArray(Path[]::new));
      String name = c.get("name").getAsString();
      assertThat(result.intact())
          .as(name + ": " + result.problem())
          .isEqualTo(c.get("intact").getAsBoolean());
      if (c.has("first_bad_line")) {
        assertThat(result.problem())
            .as(name)
            .startsWith(c.get("first_bad_line").getAsString() + ":");
      }
      if (c.has("calls")) {
        assertThat(result.calls()).as(name).isEqualTo(c.get("calls").getAsInt());
      }
      if (c.has("checkpoints")) {
        assertThat(result.checkpoints()).as(name).isEqualTo(c.get("checkpoints").getAsInt());
      }
      if (c.has("torn")) {
        assertThat(result.torn()).as(name).isEqualTo(c.get("torn").getAsInt());
      }
    }
  }

  /** Writes every vector file into the temp dir, deterministically. */
  private List<Path> make() throws Exception {
    SettableClock clock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));
    Path intact = dir.resolve("intact.log");
    write(intact, clock, settings(2, 1 << 20), 5);

    List<String> lines = Files.readAllLines(intact, StandardCharsets.UTF_8);
    Path edited = dir.resolve("edited.log");
    List<String> e = new ArrayList<>(lines);
    e.set(2, e.get(2).replace("\"ok\":250", "\"ok\":249"));
    Files.write(edited, e, StandardCharsets.UTF_8);
    Path removed = dir.resolve("removed.log");
    List<String> r = new ArrayList<>(lines);
    r.remove(2);
    Files.write(removed, r, StandardCharsets.UTF_8);
    Path reordered = dir.resolve("reordered.log");
    List<String> o = new ArrayList<>(lines);
    Collections.swap(o, 4, 5);
    Files.write(reordered, o, StandardCharsets.UTF_8);

    // Written with another key: a chain that holds, checkpoints that do not.
    Path forged = dir.resolve("forged.log");
    SettableClock forgedClock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));
    AuditKey forgerKey = new AuditKey(new byte[32]);
    try (AuditLog trail =
        AuditLog.open(forged, forgerKey, forgedClock, settings(2, 1 << 20), QUIET)) {
      for (int i = 0; i < 5; i++) {
        trail.append(call(forgedClock.instant(), i)).get(10, TimeUnit.SECONDS);
        forgedClock.advance(Duration.ofMillis(10));
      }
    }

    Path torn = dir.resolve("torn.log");
    SettableClock tornClock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));
    write(torn, tornClock, settings(2, 1 << 20), 2);
    Files.writeString(torn, "{\"type\":\"call\",\"seq\":4,\"ti", StandardOpenOption.APPEND);
    write(torn, tornClock, settings(2, 1 << 20), 2);

    Path rotatedDir = Files.createDirectory(dir.resolve("rotated"));
    SettableClock rotatedClock = new SettableClock(Instant.parse("2026-11-24T08:00:00Z"));
    write(rotatedDir.resolve("rotated.log"), rotatedClock, settings(100, 1_500), 6);
    List<Path> made = new ArrayList<>(List.of(intact, edited, removed, reordered, forged, torn));
    List<Path> rotated;
    try (Stream<Path> listing = Files.list(rotatedDir)) {
      rotated = listing.sorted().toList();
    }
    made.addAll(rotated);
    made.addAll(truncations(intact, lines));
    made.addAll(rotations(rotated));
    return made;
  }

  /**
   * The cuts the chain alone cannot see (issue 28, F1–F3), made from intact.log, and the head its
   * writer's key store would hold for it: the first line removed, the end cut back to a checkpoint,
   * the tail after checkpoint seq 3 rewritten without a record and re-hashed (no key needed: its
   * later checkpoints dropped), and a restart's start line recording a cut.
   */
  private List<Path> truncations(Path intact, List<String> lines) throws IOException {
    Path head = dir.resolve("intact.head.json");
    Files.writeString(
        head, head(lines.get(8), lines.get(0), file("intact.log", 0, 8)), StandardCharsets.UTF_8);
    Path headCut = dir.resolve("head-cut.log");
    Files.write(headCut, lines.subList(1, lines.size()), StandardCharsets.UTF_8);
    Path tailCut = dir.resolve("tail-cut.log");
    Files.write(tailCut, lines.subList(0, 7), StandardCharsets.UTF_8);

    // Keep seq 0-3, drop the call at seq 4, renumber and re-hash the calls after it.
    List<String> rechained = new ArrayList<>(lines.subList(0, 4));
    for (String call : List.of(lines.get(5), lines.get(7))) {
      rechained.add(rechain(call, rechained.size(), rechained.get(rechained.size() - 1)));
    }
    Path shortened = dir.resolve("rechained.log");
    Files.write(shortened, rechained, StandardCharsets.UTF_8);
    // The same, padded with copies of the last call until it passes the anchored seq 8.
    while (rechained.size() < 10) {
      rechained.add(rechain(lines.get(7), rechained.size(), rechained.get(rechained.size() - 1)));
    }
    Path padded = dir.resolve("rechained-padded.log");
    Files.write(padded, rechained, StandardCharsets.UTF_8);

    // Cut back to checkpoint seq 3 and restarted: the server's start line records the cut.
    List<String> restarted = new ArrayList<>(lines.subList(0, 4));
    restarted.add(
        "{\"type\":\"start\",\"seq\":4,\"time\":\"2026-11-24T08:00:01Z\",\"why\":\"restart\","
            + "\"cut\":{\"anchored_seq\":8,\"anchored_hash\":\""
            + sha256(lines.get(8))
            + "\",\"found_seq\":3},\"prev\":\""
            + sha256(lines.get(3))
            + "\"}");
    Path cutRecorded = dir.resolve("cut-recorded.log");
    Files.write(cutRecorded, restarted, StandardCharsets.UTF_8);
    return List.of(head, headCut, tailCut, shortened, padded, cutRecorded);
  }

  /**
   * The rotated trail's heads: whole (three files), and after retention removed the oldest file;
   * and its live file with a rotation line naming a file that was never read before it.
   */
  private List<Path> rotations(List<Path> rotated) throws IOException {
    List<String> oldest = Files.readAllLines(rotated.get(1), StandardCharsets.UTF_8);
    List<String> middle = Files.readAllLines(rotated.get(2), StandardCharsets.UTF_8);
    List<String> live = Files.readAllLines(rotated.get(0), StandardCharsets.UTF_8);
    String checkpoint = middle.get(middle.size() - 1);
    JsonObject oldestFile = file(rotated.get(1).getFileName().toString(), 0, 4);
    JsonObject middleFile = file(rotated.get(2).getFileName().toString(), 5, 9);
    JsonObject liveFile = file("rotated.log", 10, 10);
    Path whole = dir.resolve("rotated.head.json");
    Files.writeString(
        whole,
        head(checkpoint, oldest.get(0), oldestFile, middleFile, liveFile),
        StandardCharsets.UTF_8);
    Path retained = dir.resolve("retained.head.json");
    Files.writeString(
        retained, head(checkpoint, middle.get(0), middleFile, liveFile), StandardCharsets.UTF_8);
    Path wrongFrom = dir.resolve("wrong-from.log");
    Files.writeString(
        wrongFrom,
        live.get(0)
                .replace(
                    rotated.get(2).getFileName().toString(), "rotated.log.20261124T080000.040Z")
            + "\n",
        StandardCharsets.UTF_8);
    return List.of(whole, retained, wrongFrom);
  }

  /**
   * An AuditHead as protojson: anchored at checkpoint line {@code last}, first kept {@code first}.
   */
  private static String head(String last, String first, JsonObject... files) {
    JsonObject lastLine = JsonParser.parseString(last).getAsJsonObject();
    JsonObject firstLine = JsonParser.parseString(first).getAsJsonObject();
    JsonObject head = new JsonObject();
    head.addProperty("seq", lastLine.get("seq").getAsString());
    head.addProperty("hash", sha256(last));
    head.addProperty("time", lastLine.get("time").getAsString());
    head.addProperty("firstSeq", firstLine.get("seq").getAsString());
    head.addProperty("firstHash", sha256(first));
    JsonArray list = new JsonArray();
    for (JsonObject f : files) {
      list.add(f);
    }
    head.add("files", list);
    return new GsonBuilder().setPrettyPrinting().create().toJson(head) + "\n";
  }

  private static JsonObject file(String name, long firstSeq, long lastSeq) {
    JsonObject f = new JsonObject();
    f.addProperty("name", name);
    f.addProperty("firstSeq", Long.toString(firstSeq));
    f.addProperty("lastSeq", Long.toString(lastSeq));
    return f;
  }

  /**
   * {@code line} renumbered to {@code seq} and chained onto {@code previous}, as a forger would.
   */
  private static String rechain(String line, int seq, String previous) {
    return line.replaceFirst("\"seq\":\\d+,", "\"seq\":" + seq + ",")
        .replaceFirst("\"prev\":\"[0-9a-f]{64}\"", "\"prev\":\"" + sha256(previous) + "\"");
  }

  private static String sha256(String line) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(line.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static AuditLog.Settings settings(int checkpointEvery, long rotateBytes) {
    return new AuditLog.Settings(checkpointEvery, Duration.ofHours(1), rotateBytes, 64);
  }

  private static void write(Path file, SettableClock clock, AuditLog.Settings settings, int calls)
      throws Exception {
    try (AuditLog trail = AuditLog.open(file, KEY, clock, settings, QUIET)) {
      for (int i = 0; i < calls; i++) {
        trail.append(call(clock.instant(), i)).get(10, TimeUnit.SECONDS);
        clock.advance(Duration.ofMillis(10));
      }
    }
  }

  private static CallRecord call(Instant time, int i) {
    ItemTally tally = new ItemTally();
    tally.add("orders", 2, "ok", 250);
    tally.add("orders", 2, "DECRYPTION_FAILED", 6);
    return CallRecord.builder(time, "req-" + i)
        .caller("billing")
        .callerVia("certificate")
        .peer("127.0.0.1:40000")
        .method("cipherd.v1.CryptoService/DecryptBatch")
        .keyName("orders")
        .items(tally.items())
        .versions(tally.snapshot())
        .status("OK")
        .contextHash(KEY.hashContext(("tenant-" + i).getBytes(StandardCharsets.UTF_8)))
        .build();
  }
}

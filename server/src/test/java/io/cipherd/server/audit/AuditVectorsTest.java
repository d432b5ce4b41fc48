package io.cipherd.server.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.cipherd.server.keys.SettableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
      AuditTrailVerifier.Result result = AuditTrailVerifier.verify(KEY, files.toArray(Path[]::new));
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
    try (Stream<Path> listing = Files.list(rotatedDir)) {
      listing.sorted().forEach(made::add);
    }
    return made;
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
    return new CallRecord(
        time,
        "req-" + i,
        "billing",
        "certificate",
        "127.0.0.1:40000",
        "cipherd.v1.CryptoService/DecryptBatch",
        "orders",
        tally.items(),
        tally.snapshot(),
        "OK",
        null,
        KEY.hashContext(("tenant-" + i).getBytes(StandardCharsets.UTF_8)));
  }
}

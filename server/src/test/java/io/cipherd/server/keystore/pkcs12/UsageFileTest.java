package io.cipherd.server.keystore.pkcs12;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.VersionUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code usage.json}: counts added since a file was written read as 0, and round trips. */
class UsageFileTest {
  @TempDir Path dir;

  @Test
  void aFileWrittenBeforeFailuresWereCounted_readsThemAsZero() throws Exception {
    Path file = dir.resolve("usage.json");
    Files.writeString(
        file,
        "{\"format\": 1, \"usage\": {\"orders\": {\"2\": {\"encryptions\": 12, \"decryptions\": 3,"
            + " \"rewraps\": 1, \"last_used\": \"2026-11-23T10:00:00Z\"}}}}\n");

    VersionUsage usage = UsageFile.read(file).get("orders").get(2);

    assertThat(usage)
        .isEqualTo(new VersionUsage(12, 3, 1, 0, Instant.parse("2026-11-23T10:00:00Z"), 0));
  }

  @Test
  void failures_roundTrip() throws Exception {
    Path file = dir.resolve("usage.json");
    VersionUsage usage = new VersionUsage(1, 2, 3, 4, Instant.parse("2026-11-23T10:00:00Z"), 5);
    Files.write(file, UsageFile.encode(Map.of("orders", Map.of(7, usage))));

    assertThat(UsageFile.read(file)).isEqualTo(Map.of("orders", Map.of(7, usage)));
  }
}

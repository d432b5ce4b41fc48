package io.cipherd.server.subjectstore.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Opening a store: which URLs are accepted, the embedded file's place and mode, reopening. */
class JdbcSubjectStoresTest {
  @TempDir Path tmp;

  @Test
  void noUrl_opensSubjectsDbInTheDataFolder_privateToTheOwner() throws Exception {
    Path dataDir = tmp.resolve("data");

    JdbcSubjectStores.open(new SubjectStoreConfig(null, null, null, 2, dataDir)).close();

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir)))
        .isEqualTo("rwx------");
    assertThat(
            PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dataDir.resolve("subjects.db"))))
        .isEqualTo("rw-------");
  }

  @Test
  void reopened_keepsItsRows_andMigratesNothingAgain() {
    SubjectStoreConfig config = new SubjectStoreConfig(null, null, null, 2, tmp);
    SecureRandom random = new SecureRandom();
    byte[] hash = new byte[32];
    random.nextBytes(hash);
    SubjectRecord row =
        SubjectRecord.live(
            SubjectRef.random(random),
            "users",
            SubjectHash.of(hash),
            "<users/v1:gcm>x",
            1,
            Instant.ofEpochMilli(5));
    try (var store = JdbcSubjectStores.open(config)) {
      store.createIfAbsent(List.of(row));
    }
    CountingDataSource counter = new CountingDataSource();

    try (var store = JdbcSubjectStores.open(config, counter.decorator())) {
      long atOpen = counter.statements();
      assertThat(store.findByRef(List.of(row.ref())).get(row.ref()).wrappedKey())
          .isEqualTo("<users/v1:gcm>x");
      assertThat(atOpen)
          .as("statements at open: Flyway's look at its history, no row read")
          .isLessThan(20);
    }
  }

  @Test
  void otherUrl_isRefused_namingWhatIsAccepted_withoutEchoingTheUrl() {
    SubjectStoreConfig mysql =
        new SubjectStoreConfig("jdbc:mysql://db/x?password=hunter2", null, null, 2, tmp);

    assertThatThrownBy(() -> JdbcSubjectStores.open(mysql))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("jdbc:postgresql://host:port/database")
        .hasMessageContaining("unset for the embedded SQLite file")
        .hasMessageContaining("got a jdbc:mysql: URL")
        .message()
        .doesNotContain("hunter2");
  }

  @Test
  void poolSizeBelowOne_isRefused() {
    assertThatThrownBy(
            () -> JdbcSubjectStores.open(new SubjectStoreConfig(null, null, null, 0, tmp)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--subject-store-pool-size must be at least 1");
  }
}

package io.cipherd.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.SubjectStoreConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Parsing of the --subject-store-* options (no database needed). */
class SubjectStoreOptionsTest {
  @TempDir Path tmp;

  private ServerCommand parse(String... args) throws Exception {
    Path keyStorePassword = tmp.resolve("keystore-password");
    Files.writeString(keyStorePassword, "not-this-test's\n");
    ServerCommand command = new ServerCommand();
    new CommandLine(command)
        .parseArgs(
            Stream.concat(
                    Stream.of("--keystore-password-file=" + keyStorePassword), Stream.of(args))
                .toArray(String[]::new));
    return command;
  }

  @Test
  void noUrl_isTheEmbeddedFileInTheDataFolder_withEightConnections() throws Exception {
    SubjectStoreConfig config =
        parse("--data-dir=" + tmp, "--subject-store-user=ignored").toConfig().subjectStore();

    assertThat(config.url()).isNull();
    assertThat(config.user()).isNull();
    assertThat(config.password()).isNull();
    assertThat(config.dataDir()).isEqualTo(tmp);
    assertThat(config.poolSize()).isEqualTo(8);
    assertThat(config.statementTimeout()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void statementTimeout_isWholeSecondsRoundedUp_fromOneSecondToAnHour() throws Exception {
    SubjectStoreConfig config =
        parse("--subject-store-statement-timeout=PT2.5S").toConfig().subjectStore();
    assertThat(config.statementTimeout()).isEqualTo(Duration.ofMillis(2500));
    assertThat(config.statementTimeoutSeconds()).isEqualTo(3);
    assertThat(
            parse("--subject-store-statement-timeout=PT1H")
                .toConfig()
                .subjectStore()
                .statementTimeoutSeconds())
        .isEqualTo(3600);

    for (String refused : new String[] {"PT0.5S", "PT0S", "PT-5S", "PT1H0.001S"}) {
      ServerCommand command = parse("--subject-store-statement-timeout=" + refused);
      assertThatThrownBy(command::toConfig)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("--subject-store-statement-timeout must be from PT1S to PT1H");
    }
  }

  @Test
  void postgres_withUserPasswordFileAndPool() throws Exception {
    Path password = tmp.resolve("pw");
    Files.writeString(password, "s3cret\n");

    SubjectStoreConfig config =
        parse(
                "--data-dir=" + tmp,
                "--subject-store-url=jdbc:postgresql://db:5432/cipherd",
                "--subject-store-user=cipherd",
                "--subject-store-password-file=" + password,
                "--subject-store-pool-size=20")
            .toConfig()
            .subjectStore();

    assertThat(config.url()).isEqualTo("jdbc:postgresql://db:5432/cipherd");
    assertThat(config.user()).isEqualTo("cipherd");
    assertThat(config.password()).containsExactly("s3cret".toCharArray());
    assertThat(config.poolSize()).isEqualTo(20);
    assertThat(config.toString()).doesNotContain("s3cret");
  }

  @Test
  void emptyPasswordFile_isRefused() throws Exception {
    Path password = tmp.resolve("pw");
    Files.writeString(password, " \n");
    ServerCommand command =
        parse(
            "--subject-store-url=jdbc:postgresql://db/cipherd",
            "--subject-store-password-file=" + password);

    assertThatThrownBy(command::toConfig)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("subject store password file")
        .hasMessageContaining("is empty");
  }

  @Test
  void poolSizeZero_isRefused() throws Exception {
    ServerCommand command = parse("--subject-store-pool-size=0");

    assertThatThrownBy(command::toConfig)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--subject-store-pool-size must be at least 1, got 0");
  }

  @Test
  void configsText_leavesOutTheUrlsQuery() throws Exception {
    SubjectStoreConfig config =
        parse("--subject-store-url=jdbc:postgresql://db/cipherd?password=hunter2&ssl=true")
            .toConfig()
            .subjectStore();

    assertThat(config.toString())
        .contains("url=jdbc:postgresql://db/cipherd?…")
        .doesNotContain("hunter2");
  }
}

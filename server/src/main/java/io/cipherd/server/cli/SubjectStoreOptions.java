package io.cipherd.server.cli;

import io.cipherd.server.subjects.SubjectStoreConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The {@code --subject-store-*} options: where subject keys live (PostgreSQL for replicas, the
 * embedded SQLite file in --data-dir when no URL is set); each has a CIPHERD_SUBJECT_STORE_*
 * variable.
 */
public final class SubjectStoreOptions {
  public static final int DEFAULT_POOL_SIZE = 8;

  @Option(
      names = "--subject-store-url",
      defaultValue = "${env:CIPHERD_SUBJECT_STORE_URL}",
      description =
          "JDBC URL of the PostgreSQL database holding subject keys, e.g. "
              + "jdbc:postgresql://db:5432/cipherd (CIPHERD_SUBJECT_STORE_URL). Unset: the embedded "
              + "SQLite file subjects.db in --data-dir (one node only).")
  String url;

  @Option(
      names = "--subject-store-user",
      defaultValue = "${env:CIPHERD_SUBJECT_STORE_USER}",
      description = "Database user (CIPHERD_SUBJECT_STORE_USER).")
  String user;

  @Option(
      names = "--subject-store-password-file",
      defaultValue = "${env:CIPHERD_SUBJECT_STORE_PASSWORD_FILE}",
      description =
          "File holding the database password (CIPHERD_SUBJECT_STORE_PASSWORD_FILE); "
              + "CIPHERD_SUBJECT_STORE_PASSWORD is used when this is not set.")
  Path passwordFile;

  @Option(
      names = "--subject-store-pool-size",
      defaultValue = "${env:CIPHERD_SUBJECT_STORE_POOL_SIZE:-" + DEFAULT_POOL_SIZE + "}",
      description =
          "Most connections to the subject store's database (CIPHERD_SUBJECT_STORE_POOL_SIZE). "
              + "Default: ${DEFAULT-VALUE}.")
  int poolSize;

  @Option(
      names = "--subject-store-statement-timeout",
      defaultValue = "${env:CIPHERD_SUBJECT_STORE_STATEMENT_TIMEOUT:-PT10S}",
      description =
          "How long one statement may wait for the subject store's database, ISO-8601, whole "
              + "seconds (CIPHERD_SUBJECT_STORE_STATEMENT_TIMEOUT): past it PostgreSQL cancels "
              + "it (a lock held elsewhere, a stalled server) and the call fails UNAVAILABLE. "
              + "Default: ${DEFAULT-VALUE}.")
  Duration statementTimeout;

  /** The validated configuration, with the password read from its file or the environment. */
  public SubjectStoreConfig toConfig(Path dataDir) throws IOException {
    ServerConfig.checkAtLeastOne(poolSize, "--subject-store-pool-size");
    String storeUrl = url == null || url.isBlank() ? null : url.strip();
    return new SubjectStoreConfig(
        storeUrl,
        storeUrl == null ? null : user,
        storeUrl == null ? null : password(),
        poolSize,
        dataDir,
        statementTimeout);
  }

  private char[] password() throws IOException {
    if (passwordFile != null) {
      String content = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
      if (content.isEmpty()) {
        throw new IllegalArgumentException(
            "subject store password file " + passwordFile + " is empty");
      }
      return content.toCharArray();
    }
    String fromEnv = System.getenv("CIPHERD_SUBJECT_STORE_PASSWORD");
    return fromEnv == null || fromEnv.isEmpty() ? null : fromEnv.toCharArray();
  }
}

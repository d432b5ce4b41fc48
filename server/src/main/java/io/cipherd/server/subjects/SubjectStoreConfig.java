package io.cipherd.server.subjects;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the subject store is.
 *
 * @param url a JDBC URL ({@code jdbc:postgresql://…}), or null for the embedded file database in
 *     {@code dataDir}
 * @param user the database user, or null
 * @param password the database password, or null
 * @param poolSize at most this many connections
 * @param dataDir the folder of the embedded database
 * @param statementTimeout how long one statement may wait for the database, in whole seconds
 *     (rounded up): PostgreSQL cancels it then, the embedded file stops waiting for another
 *     writer's lock; the call that needed it fails UNAVAILABLE
 */
public record SubjectStoreConfig(
    String url,
    String user,
    char[] password,
    int poolSize,
    Path dataDir,
    Duration statementTimeout) {
  /** The statement timeout unless one is given. */
  public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(10);

  /** The longest statement timeout accepted. */
  public static final Duration MAX_STATEMENT_TIMEOUT = Duration.ofHours(1);

  public SubjectStoreConfig {
    if (statementTimeout.compareTo(Duration.ofSeconds(1)) < 0
        || statementTimeout.compareTo(MAX_STATEMENT_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          "--subject-store-statement-timeout must be from PT1S to "
              + MAX_STATEMENT_TIMEOUT
              + ", got "
              + statementTimeout);
    }
  }

  /** A store with the default statement timeout. */
  public SubjectStoreConfig(String url, String user, char[] password, int poolSize, Path dataDir) {
    this(url, user, password, poolSize, dataDir, DEFAULT_STATEMENT_TIMEOUT);
  }

  /** The statement timeout in JDBC's unit, whole seconds, rounded up. */
  public int statementTimeoutSeconds() {
    return (int) statementTimeout.plusNanos(999_999_999).toSeconds();
  }

  @Override
  public String toString() {
    // A URL's query may carry a password: it is left out.
    return "SubjectStoreConfig[url="
        + (url == null ? "embedded in " + dataDir : url.replaceFirst("\\?.*", "?…"))
        + ", user="
        + user
        + ", poolSize="
        + poolSize
        + ", statementTimeout="
        + statementTimeout
        + "]";
  }
}

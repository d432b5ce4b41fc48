package io.cipherd.server.subjectstore.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * Opens a {@link JdbcSubjectStore}: a HikariCP pool on PostgreSQL or on the embedded SQLite file,
 * the schema migrated, nothing read (start-up does not grow with the number of subjects).
 */
public final class JdbcSubjectStores {
  /** The URL prefix of the one server database supported. */
  public static final String POSTGRESQL_URL = "jdbc:postgresql:";

  /** How long a call waits for a pooled connection before the store counts as unavailable. */
  static final long CONNECTION_TIMEOUT_MS = 5_000;

  /** How long SQLite waits for another connection's write lock before failing. */
  static final int SQLITE_BUSY_TIMEOUT_MS = 5_000;

  private JdbcSubjectStores() {}

  /** The store {@code config} names (see {@link #open(SubjectStoreConfig, UnaryOperator)}). */
  public static JdbcSubjectStore open(SubjectStoreConfig config) {
    return open(config, UnaryOperator.identity());
  }

  /**
   * PostgreSQL for a {@code jdbc:postgresql:} URL, the SQLite file {@code subjects.db} in the data
   * folder when the URL is null; any other URL is refused. {@code decorate} wraps the pool's data
   * source (for instance to count statements); the pool itself is closed with the store.
   */
  public static JdbcSubjectStore open(
      SubjectStoreConfig config, UnaryOperator<DataSource> decorate) {
    Objects.requireNonNull(config, "config");
    if (config.poolSize() < 1) {
      throw new IllegalArgumentException(
          "--subject-store-pool-size must be at least 1, got " + config.poolSize());
    }
    HikariConfig pool = new HikariConfig();
    pool.setPoolName("cipherd-subjects");
    pool.setMaximumPoolSize(config.poolSize());
    pool.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
    SubjectStoreDialect dialect;
    if (config.url() == null) {
      dialect = SubjectStoreDialect.SQLITE;
      configureSqlite(pool, SqliteFile.prepare(config.dataDir()));
    } else if (config.url().toLowerCase(Locale.ROOT).startsWith(POSTGRESQL_URL)) {
      dialect = SubjectStoreDialect.POSTGRESQL;
      configurePostgres(pool, config);
    } else {
      throw new IllegalArgumentException(
          "--subject-store-url must be a "
              + POSTGRESQL_URL
              + "//host:port/database URL, or unset for the embedded SQLite file in --data-dir; got a "
              + scheme(config.url())
              + " URL");
    }
    HikariDataSource dataSource = openPool(pool, config);
    try {
      DataSource decorated = decorate.apply(dataSource);
      SubjectSchema.migrate(decorated, dialect);
      return new JdbcSubjectStore(decorated, dataSource, config.statementTimeoutSeconds());
    } catch (RuntimeException e) {
      dataSource.close();
      throw e;
    }
  }

  private static void configureSqlite(HikariConfig pool, Path file) {
    pool.setJdbcUrl("jdbc:sqlite:" + file.toAbsolutePath());
    // sqlite-jdbc reads these connection properties as pragmas of each connection. WAL lets
    // readers go on while one connection writes; FULL makes each committed erasure durable at
    // once (an erasure lost to a power cut would bring the subject back).
    pool.addDataSourceProperty("journal_mode", "WAL");
    pool.addDataSourceProperty("synchronous", "FULL");
    pool.addDataSourceProperty("busy_timeout", String.valueOf(SQLITE_BUSY_TIMEOUT_MS));
  }

  private static void configurePostgres(HikariConfig pool, SubjectStoreConfig config) {
    pool.setJdbcUrl(config.url());
    if (config.user() != null) {
      pool.setUsername(config.user());
    }
    if (config.password() != null) {
      pool.setPassword(new String(config.password()));
    }
    pool.addDataSourceProperty("ApplicationName", "cipherd");
    // The server's detail line quotes a row's values (a subject hash, a wrapped key); keep it out
    // of exception messages, which reach logs.
    pool.addDataSourceProperty("logServerErrorDetail", "false");
  }

  private static HikariDataSource openPool(HikariConfig pool, SubjectStoreConfig config) {
    try {
      return new HikariDataSource(pool);
    } catch (RuntimeException e) {
      Throwable root = e;
      while (root.getCause() != null) {
        root = root.getCause();
      }
      throw new SubjectStoreUnavailableException(
          "subject store: cannot connect to " + where(config) + ": " + root.getMessage(), e);
    }
  }

  /** The URL without its query (which may carry a password), or the embedded file's folder. */
  private static String where(SubjectStoreConfig config) {
    if (config.url() == null) {
      return "the embedded file in " + config.dataDir();
    }
    int query = config.url().indexOf('?');
    return query < 0 ? config.url() : config.url().substring(0, query);
  }

  /** {@code jdbc:mysql:} of {@code jdbc:mysql://…}: enough to say what was given, no secret. */
  private static String scheme(String url) {
    int first = url.indexOf(':');
    int second = first < 0 ? -1 : url.indexOf(':', first + 1);
    return second < 0 ? "non-JDBC" : url.substring(0, second + 1);
  }
}

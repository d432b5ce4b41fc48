package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * The subject store's schema, brought to the newest version by Flyway's versioned migrations (one
 * folder per dialect). Replicas starting at once are safe: Flyway holds a lock (an advisory lock on
 * PostgreSQL) while it migrates, and the loser finds the work done.
 */
final class SubjectSchema {
  /** Flyway's own table: named for cipherd, so a database shared with an application is fine. */
  static final String HISTORY_TABLE = "cipherd_subject_schema_history";

  private SubjectSchema() {}

  /** Applies the migrations {@code dialect} has not run on {@code dataSource} yet. */
  static void migrate(DataSource dataSource, SubjectStoreDialect dialect) {
    try {
      Flyway.configure(SubjectSchema.class.getClassLoader())
          .dataSource(dataSource)
          .locations(dialect.migrations())
          .table(HISTORY_TABLE)
          // A database that already holds other tables (an application's) gets ours beside them:
          // its history starts below our first migration, which then runs.
          .baselineOnMigrate(true)
          .baselineVersion("0")
          .load()
          .migrate();
    } catch (FlywayException e) {
      throw new SubjectStoreUnavailableException(
          "subject store: migrating its schema failed: " + e.getMessage(), e);
    }
  }
}

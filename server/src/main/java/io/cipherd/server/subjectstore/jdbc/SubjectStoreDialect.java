package io.cipherd.server.subjectstore.jdbc;

/**
 * The databases the JDBC subject store runs on. Their statements are the same (see {@link
 * JdbcSubjectStore}); only the schema's column types differ, so each has its own folder of
 * migrations.
 */
public enum SubjectStoreDialect {
  /** PostgreSQL 15+ (and, by the same SQL, CockroachDB and YugabyteDB): replicas share it. */
  POSTGRESQL("postgresql"),
  /** An embedded SQLite file: one node, {@code make run}. */
  SQLITE("sqlite");

  private final String folder;

  SubjectStoreDialect(String folder) {
    this.folder = folder;
  }

  /** Where Flyway finds this dialect's migrations on the class path. */
  String migrations() {
    return "classpath:io/cipherd/server/subjectstore/jdbc/migration/" + folder;
  }
}

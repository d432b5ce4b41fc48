package io.cipherd.server.subjectstore;

import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjectstore.jdbc.JdbcSubjectStores;

/**
 * Opens the subject store a configuration names. It lives beside the implementations, not in {@code
 * subjects}, so that the interface's package depends on none of them (as {@code keys} and {@code
 * keystore}).
 */
public final class SubjectStores {
  private SubjectStores() {}

  /**
   * The store {@code config} names: PostgreSQL for a {@code jdbc:postgresql:} URL, the embedded
   * SQLite file {@code subjects.db} in its data folder when it has no URL; any other URL is
   * refused. The schema is migrated before this returns; no row is read.
   */
  public static SubjectStore open(SubjectStoreConfig config) {
    return JdbcSubjectStores.open(config);
  }
}

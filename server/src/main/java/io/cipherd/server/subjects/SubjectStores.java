package io.cipherd.server.subjects;

/** Opens the subject store a configuration names. */
public final class SubjectStores {
  private SubjectStores() {}

  /**
   * The store {@code config} names: PostgreSQL for a {@code jdbc:postgresql:} URL, the embedded
   * file database in its data folder when it has no URL.
   */
  public static SubjectStore open(SubjectStoreConfig config) {
    // Until the JDBC stores land (issue 32, the store's branch): memory, lost on restart.
    return new MemorySubjectStore();
  }
}

package io.cipherd.server.subjects;

/** The in-memory reference store holds to the contract the database stores are held to. */
class MemorySubjectStoreTest extends SubjectStoreContract {
  @Override
  protected SubjectStore newStore() {
    return new MemorySubjectStore();
  }

  @Override
  protected SubjectStore sameDatabase() {
    return store;
  }
}

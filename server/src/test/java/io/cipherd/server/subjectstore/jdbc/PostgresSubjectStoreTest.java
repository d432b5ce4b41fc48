package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreContract;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;

/** The production store, on a real PostgreSQL (a database per test), holds to the contract. */
@Tag("postgres")
class PostgresSubjectStoreTest extends SubjectStoreContract {
  private final CountingDataSource counter = new CountingDataSource();
  private final List<SubjectStore> opened = new ArrayList<>();
  private String database;

  @Override
  protected SubjectStore newStore() throws Exception {
    database = TestPostgres.get().newDatabase();
    return sameDatabase();
  }

  @Override
  protected SubjectStore sameDatabase() {
    SubjectStore store =
        JdbcSubjectStores.open(TestPostgres.get().config(database, 4), counter.decorator());
    opened.add(store);
    return store;
  }

  @Override
  protected long statements() {
    return counter.statements();
  }

  @Override
  protected void closeAll() {
    opened.forEach(SubjectStore::close);
  }
}

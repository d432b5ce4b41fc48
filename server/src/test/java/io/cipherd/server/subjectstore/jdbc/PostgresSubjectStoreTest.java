package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjects.SubjectStoreContract;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;

/** The production store, on a real PostgreSQL (a database per test), holds to the contract. */
@Tag("postgres")
class PostgresSubjectStoreTest extends SubjectStoreContract {
  private final CountingDataSource counter = new CountingDataSource();
  private final List<SubjectStore> opened = new ArrayList<>();
  private String url;

  @Override
  protected SubjectStore newStore() throws Exception {
    url = TestPostgres.get().newDatabase();
    return sameDatabase();
  }

  @Override
  protected SubjectStore sameDatabase() {
    TestPostgres postgres = TestPostgres.get();
    SubjectStore store =
        JdbcSubjectStores.open(
            new SubjectStoreConfig(
                url, TestPostgres.USER, postgres.password().toCharArray(), 4, null),
            counter.decorator());
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

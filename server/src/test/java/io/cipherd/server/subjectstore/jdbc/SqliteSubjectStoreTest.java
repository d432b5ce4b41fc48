package io.cipherd.server.subjectstore.jdbc;

import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjects.SubjectStoreConfig;
import io.cipherd.server.subjects.SubjectStoreContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** The embedded store, a SQLite file in a temporary folder, holds to the contract. */
class SqliteSubjectStoreTest extends SubjectStoreContract {
  @TempDir Path dataDir;

  private final CountingDataSource counter = new CountingDataSource();
  private final List<SubjectStore> opened = new ArrayList<>();

  @Override
  protected SubjectStore newStore() {
    return sameDatabase();
  }

  @Override
  protected SubjectStore sameDatabase() {
    SubjectStore store =
        JdbcSubjectStores.open(
            new SubjectStoreConfig(null, null, null, 4, dataDir), counter.decorator());
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

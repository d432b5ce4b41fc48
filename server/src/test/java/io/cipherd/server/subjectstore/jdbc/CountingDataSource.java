package io.cipherd.server.subjectstore.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * Counts the statements run through a data source (each execute call of a statement its connections
 * make): how a test shows that a batch of subjects costs one round-trip, not one per subject.
 */
final class CountingDataSource {
  private static final Set<String> EXECUTES =
      Set.of("execute", "executeQuery", "executeUpdate", "executeLargeUpdate", "executeBatch");

  private final AtomicLong statements = new AtomicLong();

  /** Statements run so far. */
  long statements() {
    return statements.get();
  }

  /** Wraps a data source so its statements are counted here. */
  UnaryOperator<DataSource> decorator() {
    return dataSource -> proxy(DataSource.class, dataSource);
  }

  private <T> T proxy(Class<T> type, T target) {
    InvocationHandler handler =
        (self, method, args) -> {
          Object result;
          try {
            result = method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (EXECUTES.contains(method.getName()) && (target instanceof Statement)) {
            statements.incrementAndGet();
          }
          if (result instanceof Connection connection && method.getName().equals("getConnection")) {
            return proxy(Connection.class, connection);
          }
          if (result instanceof PreparedStatement statement) {
            return proxy(PreparedStatement.class, statement);
          }
          if (result instanceof Statement statement && method.getName().equals("createStatement")) {
            return proxy(Statement.class, statement);
          }
          return result;
        };
    return type.cast(
        Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, handler));
  }
}

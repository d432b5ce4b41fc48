package io.cipherd.server.metrics;

import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectRewrap;
import io.cipherd.server.subjects.SubjectStore;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A {@link SubjectStore} that times every call by operation and outcome ({@link StoreCallTimers}):
 * each is one round-trip to the database, so the count says how many a load costs (a batch of cold
 * subjects, one lookup), and an outcome of {@code store_unavailable} a database that failed or did
 * not answer within the statement timeout. Only names: no subject, reference or row is a label.
 */
public final class MeteredSubjectStore implements SubjectStore {
  static final String CALLS = "cipherd.subject_store.calls";

  private final SubjectStore delegate;
  private final StoreCallTimers timers;

  public MeteredSubjectStore(SubjectStore delegate, MeterRegistry registry) {
    this.delegate = delegate;
    this.timers =
        new StoreCallTimers(
            registry,
            CALLS,
            "Subject store round-trips by operation and outcome; outcome other than ok is an"
                + " error");
  }

  @Override
  public Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects) {
    return timers.timed("find", () -> delegate.find(keyName, subjects));
  }

  @Override
  public Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    return timers.timed("find_by_ref", () -> delegate.findByRef(refs));
  }

  @Override
  public Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows) {
    return timers.timed("create_if_absent", () -> delegate.createIfAbsent(rows));
  }

  @Override
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now) {
    return timers.timed("erase", () -> delegate.erase(keyName, subjects, now));
  }

  @Override
  public Map<Integer, Long> countByWrapVersion(String keyName) {
    return timers.timed("count_by_wrap_version", () -> delegate.countByWrapVersion(keyName));
  }

  @Override
  public List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    return timers.timed(
        "wrapped_below", () -> delegate.wrappedBelow(keyName, belowVersion, after, limit));
  }

  @Override
  public int rewrap(List<SubjectRewrap> rewraps) {
    return timers.timed("rewrap", () -> delegate.rewrap(rewraps));
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}

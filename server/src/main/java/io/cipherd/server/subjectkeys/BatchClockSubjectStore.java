package io.cipherd.server.subjectkeys;

import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectRewrap;
import io.cipherd.server.subjects.SubjectStore;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The subject store as a batch sees it: each call, answered or failed, moves the time of the batch
 * under way on the calling thread to when it returned ({@link SubjectClock#waitFor}). A batch that
 * waited seconds for the store (a lock, a stalled database) judges its later items' subject keys at
 * the time the wait ended, so another replica's erasure reaches them within the cache TTL whatever
 * the database did. Outside a batch the calls go straight through.
 */
final class BatchClockSubjectStore implements SubjectStore {
  private final SubjectStore delegate;

  BatchClockSubjectStore(SubjectStore delegate) {
    this.delegate = delegate;
  }

  @Override
  public Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects) {
    return SubjectClock.waitFor(() -> delegate.find(keyName, subjects));
  }

  @Override
  public Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    return SubjectClock.waitFor(() -> delegate.findByRef(refs));
  }

  @Override
  public Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows) {
    return SubjectClock.waitFor(() -> delegate.createIfAbsent(rows));
  }

  @Override
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now) {
    return SubjectClock.waitFor(() -> delegate.erase(keyName, subjects, now));
  }

  @Override
  public Map<Integer, Long> countByWrapVersion(String keyName) {
    return SubjectClock.waitFor(() -> delegate.countByWrapVersion(keyName));
  }

  @Override
  public List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    return SubjectClock.waitFor(() -> delegate.wrappedBelow(keyName, belowVersion, after, limit));
  }

  @Override
  public int rewrap(List<SubjectRewrap> rewraps) {
    return SubjectClock.waitFor(() -> delegate.rewrap(rewraps));
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

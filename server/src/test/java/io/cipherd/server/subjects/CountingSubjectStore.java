package io.cipherd.server.subjects;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A subject store that counts its round-trips, over another; each lookup and creation can take a
 * network's time, as a database's does.
 */
public final class CountingSubjectStore implements SubjectStore {
  private final SubjectStore delegate;
  private final AtomicInteger finds = new AtomicInteger();
  private final AtomicInteger findsByRef = new AtomicInteger();
  private final AtomicInteger creates = new AtomicInteger();
  private final AtomicInteger rowsCreated = new AtomicInteger();

  private volatile Duration latency;

  /**
   * Set: every lookup and creation fails (after its latency), as a database that stopped answering
   * makes it.
   */
  private volatile boolean failing;

  public CountingSubjectStore(SubjectStore delegate) {
    this(delegate, Duration.ZERO);
  }

  /** Over {@code delegate}, each find and creation taking {@code latency} more. */
  public CountingSubjectStore(SubjectStore delegate, Duration latency) {
    this.delegate = delegate;
    this.latency = latency;
  }

  private void roundTrip() {
    Duration now = latency;
    if (now.isZero()) {
      return;
    }
    try {
      Thread.sleep(now);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** From now on, each find and creation takes {@code latency} more (a database slowing down). */
  public void latency(Duration latency) {
    this.latency = latency;
  }

  public void failing(boolean failing) {
    this.failing = failing;
  }

  public SubjectStore delegate() {
    return delegate;
  }

  public void reset() {
    finds.set(0);
    findsByRef.set(0);
    creates.set(0);
    rowsCreated.set(0);
  }

  public int finds() {
    return finds.get();
  }

  public int findsByRef() {
    return findsByRef.get();
  }

  public int creates() {
    return creates.get();
  }

  public int rowsCreated() {
    return rowsCreated.get();
  }

  @Override
  public Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects) {
    finds.incrementAndGet();
    roundTrip();
    failIfFailing("find");
    return delegate.find(keyName, subjects);
  }

  @Override
  public Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    findsByRef.incrementAndGet();
    roundTrip();
    failIfFailing("findByRef");
    return delegate.findByRef(refs);
  }

  @Override
  public Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows) {
    creates.incrementAndGet();
    rowsCreated.addAndGet(rows.size());
    roundTrip();
    failIfFailing("createIfAbsent");
    return delegate.createIfAbsent(rows);
  }

  private void failIfFailing(String operation) {
    if (failing) {
      throw new SubjectStoreUnavailableException(
          "subject store: "
              + operation
              + " timed out after 2 s (--subject-store-statement-timeout)");
    }
  }

  @Override
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now) {
    return delegate.erase(keyName, subjects, now);
  }

  @Override
  public Map<Integer, Long> countByWrapVersion(String keyName) {
    return delegate.countByWrapVersion(keyName);
  }

  @Override
  public List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    return delegate.wrappedBelow(keyName, belowVersion, after, limit);
  }

  @Override
  public int rewrap(List<SubjectRewrap> rewraps) {
    return delegate.rewrap(rewraps);
  }
}

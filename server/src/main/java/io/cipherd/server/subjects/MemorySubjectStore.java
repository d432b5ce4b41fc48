package io.cipherd.server.subjects;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A subject store in memory, lost when the process ends: for unit tests of what uses a {@link
 * SubjectStore}, and the reference the database stores' contract test holds them to.
 */
public final class MemorySubjectStore implements SubjectStore {
  private static final Comparator<SubjectRef> BY_BYTES =
      (a, b) -> Arrays.compareUnsigned(a.bytes(), b.bytes());

  private final Map<SubjectRef, SubjectRecord> rows = new LinkedHashMap<>();

  @Override
  public synchronized Map<SubjectHash, SubjectRecord> find(
      String keyName, Collection<SubjectHash> subjects) {
    Map<SubjectHash, SubjectRecord> found = new HashMap<>();
    for (SubjectRecord row : rows.values()) {
      if (!row.keyName().equals(keyName) || !subjects.contains(row.subjectHash())) {
        continue;
      }
      SubjectRecord before = found.get(row.subjectHash());
      if (before == null || better(row, before)) {
        found.put(row.subjectHash(), row);
      }
    }
    return found;
  }

  /** A live row wins over a tombstone; of two tombstones the later erasure. */
  private static boolean better(SubjectRecord row, SubjectRecord than) {
    if (!row.isErased()) {
      return true;
    }
    return than.isErased() && row.erased().isAfter(than.erased());
  }

  @Override
  public synchronized Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    Map<SubjectRef, SubjectRecord> found = new HashMap<>();
    for (SubjectRef ref : refs) {
      SubjectRecord row = rows.get(ref);
      if (row != null) {
        found.put(ref, row);
      }
    }
    return found;
  }

  @Override
  public synchronized Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> create) {
    Map<SubjectHash, SubjectRecord> live = new HashMap<>();
    for (SubjectRecord row : create) {
      if (row.isErased()) {
        throw new IllegalArgumentException("only live rows are created");
      }
      SubjectRecord existing =
          find(row.keyName(), List.of(row.subjectHash())).get(row.subjectHash());
      if (existing != null && !existing.isErased()) {
        live.put(row.subjectHash(), existing);
      } else {
        rows.put(row.ref(), row);
        live.put(row.subjectHash(), row);
      }
    }
    return live;
  }

  @Override
  public synchronized List<SubjectErasure> erase(
      String keyName, List<SubjectHash> subjects, Instant now) {
    List<SubjectErasure> results = new ArrayList<>();
    for (SubjectHash subject : subjects) {
      SubjectRecord row = find(keyName, List.of(subject)).get(subject);
      if (row == null) {
        results.add(new SubjectErasure(subject, SubjectErasure.Outcome.NOT_FOUND, null, List.of()));
      } else if (row.isErased()) {
        results.add(
            new SubjectErasure(
                subject, SubjectErasure.Outcome.ALREADY_ERASED, row.erased(), List.of()));
      } else {
        rows.put(row.ref(), row.erasedAt(now));
        results.add(
            new SubjectErasure(subject, SubjectErasure.Outcome.ERASED, now, List.of(row.ref())));
      }
    }
    return results;
  }

  @Override
  public synchronized Map<Integer, Long> countByWrapVersion(String keyName) {
    Map<Integer, Long> counts = new TreeMap<>();
    for (SubjectRecord row : rows.values()) {
      if (row.keyName().equals(keyName) && !row.isErased()) {
        counts.merge(row.wrapVersion(), 1L, Long::sum);
      }
    }
    return counts;
  }

  @Override
  public synchronized List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    return rows.values().stream()
        .filter(row -> row.keyName().equals(keyName) && !row.isErased())
        .filter(row -> row.wrapVersion() < belowVersion)
        .filter(row -> after == null || BY_BYTES.compare(row.ref(), after) > 0)
        .sorted(Comparator.comparing(SubjectRecord::ref, BY_BYTES))
        .limit(limit)
        .toList();
  }

  @Override
  public synchronized int rewrap(List<SubjectRewrap> rewraps) {
    int changed = 0;
    for (SubjectRewrap rewrap : rewraps) {
      SubjectRecord row = rows.get(rewrap.ref());
      if (row != null && !row.isErased() && row.wrapVersion() == rewrap.fromVersion()) {
        rows.put(row.ref(), row.rewrapped(rewrap.wrappedKey(), rewrap.toVersion()));
        changed++;
      }
    }
    return changed;
  }
}

package io.cipherd.server.subjects;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where subject keys live: one row per subject and named key (PostgreSQL for replicas, an embedded
 * file database for one node), never in the key store, which is not made for millions of entries. A
 * row holds the subject key wrapped under a version of the named key, so the store alone reveals no
 * key: a copy of it is only as good as the key versions it was wrapped under, and a version
 * destroyed makes every row wrapped under it unreadable, in the live store and in every backup.
 *
 * <p>Implementations are thread-safe and may block on the network; each call is one round-trip to
 * the database where the signature allows it (a batch of subjects is one query, not one per
 * subject). They never delete a row: an erasure keeps a tombstone with no key.
 */
public interface SubjectStore extends AutoCloseable {
  /**
   * The rows of these subjects under {@code keyName}: the live row of each subject that has one,
   * else its latest tombstone; subjects with neither are absent from the map. One round-trip.
   */
  Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects);

  /** The rows with these references, live or erased; unknown ones are absent. One round-trip. */
  Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs);

  /**
   * Stores each of {@code rows} (live, new references) whose subject has no live row under its key
   * yet, and returns the live row of every subject in {@code rows}: the one stored here, or the one
   * another caller (another replica) stored first. Of two replicas creating one subject at once,
   * both get the same row. A tombstone does not prevent a new live row: refusing erased subjects is
   * the caller's decision.
   */
  Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows);

  /**
   * Erases these subjects under {@code keyName} at {@code now}: the wrapped key of each live row is
   * removed for good (the row stays as a tombstone with {@code now} as its erasure time). Returns
   * one result per subject, in the order given.
   */
  List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now);

  /**
   * How many live subject keys of {@code keyName} each version wraps (versions with none absent).
   */
  Map<Integer, Long> countByWrapVersion(String keyName);

  /**
   * A page of the live rows of {@code keyName} wrapped under a version below {@code belowVersion},
   * ordered by reference, those after {@code after} (null: from the first), at most {@code limit}.
   */
  List<SubjectRecord> wrappedBelow(String keyName, int belowVersion, SubjectRef after, int limit);

  /**
   * Applies each rewrap whose row is still live and still wrapped under its {@code fromVersion}
   * (check-and-set: a row another replica's sweep rewrapped, or that was erased meanwhile, is left
   * alone); returns how many rows changed.
   */
  int rewrap(List<SubjectRewrap> rewraps);

  /** Releases connections and files. */
  @Override
  default void close() {}
}

package io.cipherd.server.subjects;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The subject store of a server whose keys live in Vault but that names no shared database ({@code
 * --subject-store-url}): a file beside one replica would give each replica its own subject keys,
 * and an erasure on one would leave the others decrypting. Every subject-bound call is refused with
 * a message that says what to configure; the census and the sweep see no subject keys.
 */
public final class RefusingSubjectStore implements SubjectStore {
  private final String why;

  public RefusingSubjectStore(String why) {
    this.why = why;
  }

  @Override
  public Map<SubjectHash, SubjectRecord> find(String keyName, Collection<SubjectHash> subjects) {
    throw new SubjectStoreNotConfiguredException(why);
  }

  @Override
  public Map<SubjectRef, SubjectRecord> findByRef(Collection<SubjectRef> refs) {
    throw new SubjectStoreNotConfiguredException(why);
  }

  @Override
  public Map<SubjectHash, SubjectRecord> createIfAbsent(List<SubjectRecord> rows) {
    throw new SubjectStoreNotConfiguredException(why);
  }

  @Override
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> subjects, Instant now) {
    throw new SubjectStoreNotConfiguredException(why);
  }

  @Override
  public Map<Integer, Long> countByWrapVersion(String keyName) {
    return Map.of();
  }

  @Override
  public List<SubjectRecord> wrappedBelow(
      String keyName, int belowVersion, SubjectRef after, int limit) {
    return List.of();
  }

  @Override
  public int rewrap(List<SubjectRewrap> rewraps) {
    return 0;
  }
}

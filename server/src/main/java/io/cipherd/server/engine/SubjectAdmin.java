package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import io.cipherd.server.subjectkeys.SubjectHasher;
import io.cipherd.server.subjectkeys.SubjectKeys;
import io.cipherd.server.subjects.SubjectErasure;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRecord;
import java.util.List;
import java.util.Optional;

/**
 * The operations of the subject API on domain types, each after the caller is allowed {@code erase}
 * on the key: checked before anything is looked up, so a caller without it learns nothing about
 * whether a subject exists or was erased.
 */
public final class SubjectAdmin {
  private final SubjectKeys subjects;
  private final KeyCache keys;
  private final Authorizer authorizer;

  public SubjectAdmin(SubjectKeys subjects, KeyCache keys, Authorizer authorizer) {
    this.subjects = subjects;
    this.keys = keys;
    this.authorizer = authorizer;
  }

  /**
   * Throws unless {@code keyName} is valid, the caller may erase under it, and it exists: once per
   * call, before any subject is read.
   */
  public void checkErase(String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.check(Operation.ERASE, keyName);
    keys.describe(keyName);
  }

  /** The store's name for {@code subject}, from request field {@code field}. */
  public SubjectHash hash(String field, String subject) {
    return subjects.hash(field, subject);
  }

  /** The store's name for a subject id encoded by {@link SubjectHasher#utf8}. */
  public SubjectHash hash(byte[] utf8Subject) {
    return subjects.hash(utf8Subject);
  }

  /** Erases {@code subjects} under {@code keyName} ({@link #checkErase} first): one per subject. */
  public List<SubjectErasure> erase(String keyName, List<SubjectHash> hashes) {
    return subjects.erase(keyName, hashes);
  }

  /** The row of {@code subject} under {@code keyName} ({@link #checkErase} first), if any. */
  public Optional<SubjectRecord> find(String keyName, SubjectHash subject) {
    return subjects.find(keyName, subject);
  }
}

package io.cipherd.server.subjectkeys;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.KeptCipher;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRef;
import java.time.Instant;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * One subject's unwrapped 256-bit key under one named key, ready for the crypto path: its
 * reference, the version that wraps it now, and the key prepared per mode. Only {@link SubjectKeys}
 * makes them; the bytes never leave this object but to the JCE.
 */
public final class SubjectKey {
  /** A subject key's length: 256 bits for every mode that binds subjects. */
  public static final int LENGTH = 32;

  private final SubjectRef ref;
  private final String keyName;
  private final SubjectHash subjectHash;
  private final int wrapVersion;
  private final byte[] key;
  private final ConcurrentMap<CipherMode, SecretKey> prepared = new ConcurrentHashMap<>();

  /** The key last prepared, for its mode: a subject's key is used in one mode, read per item. */
  private volatile Prepared last;

  private record Prepared(CipherMode mode, SecretKey secret) {}

  private final KeptCipher kept;
  private final long usableUntilNanos;
  private volatile Instant erasedAt;
  private volatile boolean inCache = true;

  SubjectKey(
      SubjectRef ref,
      String keyName,
      SubjectHash subjectHash,
      int wrapVersion,
      byte[] key,
      KeptCipher kept,
      long usableUntilNanos) {
    if (key.length != LENGTH) {
      throw new IllegalArgumentException("a subject key is " + LENGTH + " bytes");
    }
    this.ref = ref;
    this.keyName = keyName;
    this.subjectHash = subjectHash;
    this.wrapVersion = wrapVersion;
    this.key = key;
    this.kept = kept;
    this.usableUntilNanos = usableUntilNanos;
  }

  public SubjectRef ref() {
    return ref;
  }

  /** The named key whose versions wrap it. */
  public String keyName() {
    return keyName;
  }

  public SubjectHash subjectHash() {
    return subjectHash;
  }

  /** The version of {@link #keyName} that wrapped it when it was read. */
  public int wrapVersion() {
    return wrapVersion;
  }

  /**
   * The key for {@code mode}'s family, prepared once per mode; {@link SubjectErasedException} once
   * the subject was erased, so that a call that looked the key up just before the erasure fails
   * rather than seal with overwritten bytes.
   */
  public SecretKey secretFor(CipherMode mode, boolean encrypting) {
    Prepared recent = last;
    SecretKey secret;
    if (recent != null && recent.mode() == mode) {
      secret = recent.secret();
    } else {
      secret =
          prepared.computeIfAbsent(
              mode, m -> m.family().prepare(new SecretKeySpec(key, m.keyAlgorithm())));
      last = new Prepared(mode, secret);
    }
    Instant erased = erasedAt;
    if (erased != null) {
      throw new SubjectErasedException(keyName, erased, encrypting);
    }
    return secret;
  }

  /**
   * Where a message under {@code secret} (this key, as {@link #secretFor} gave it) gets its cipher:
   * the one kept initialised with this subject's key when it is free, so that a subject used again
   * skips the AES key schedule; {@code pool} otherwise.
   */
  public CipherSource ciphers(CipherSource pool, SecretKey secret) {
    return kept.over(pool, secret);
  }

  /**
   * Whether a cache may still serve this key now: within the cache TTL of when the store last said
   * its subject was live, not of when the key was unwrapped, so another replica's erasure is
   * honoured within the TTL however late the key was first used.
   */
  boolean servable() {
    return servableAt(SubjectClock.nanoTime());
  }

  /** Whether a cache may still serve this key at {@code nanos} ({@link System#nanoTime} scale). */
  boolean servableAt(long nanos) {
    return nanos - usableUntilNanos < 0;
  }

  /**
   * Whether this key may be served from the caches at {@code nanos}: the key cache still holds it
   * ({@link #inCache}) and it is {@link #servableAt} then.
   */
  boolean cachedAt(long nanos) {
    return inCache && servableAt(nanos);
  }

  /** Whether the key cache still holds this key: neither erased nor dropped for size or age. */
  boolean inCache() {
    return inCache;
  }

  /** Overwrites the bytes once the subject was erased at {@code erased}. */
  void wipe(Instant erased) {
    inCache = false;
    erasedAt = erased;
    Arrays.fill(key, (byte) 0);
    last = null;
    prepared.clear();
    kept.retire();
  }

  /**
   * Stops keeping a cipher for this key (it left the cache); the bytes stay for calls holding it.
   */
  void leftCache() {
    inCache = false;
    kept.retire();
  }

  @Override
  public String toString() {
    return "SubjectKey[" + keyName + ", ref " + ref + ", wrapped by v" + wrapVersion + "]";
  }
}

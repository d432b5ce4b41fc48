package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.ThreadKeyScope;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.transit.TransitCiphertext;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.pool.CipherLease;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.CallerIdentity;
import io.cipherd.server.security.Operation;
import io.cipherd.server.subjectkeys.SubjectClock;
import io.cipherd.server.subjectkeys.SubjectKey;
import io.cipherd.server.subjectkeys.SubjectKeys;
import io.cipherd.server.subjects.SubjectHash;
import io.cipherd.server.subjects.SubjectRef;
import io.cipherd.server.subjects.SubjectStoreUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The operations of the crypto API on domain types: encrypt, decrypt, rewrap and inspect
 * ciphertexts, compute blind indexes and generate data keys with the cached keys, after the {@link
 * Authorizer} allows each. The gRPC services (unary, batch and stream alike) call it; ciphertexts
 * come as protobuf parses a string field. The {@link EnvelopeCipher} does the observed work with
 * the resolved keys; this class authorizes, lays the request out in {@link WorkBuffers} and wipes
 * them.
 */
public final class CryptoEngine {
  private final KeyCache keys;
  private final CipherPools pools;
  private final Authorizer authorizer;
  private final CryptoObserver observer;
  final EnvelopeCipher envelopes;
  private final LegacyRewrap legacy;
  private final TransitCiphertexts transit;
  private final BlindIndexes indexes;
  private final FormattedValues formatted;
  private final ReIndexing reIndexing;
  private final SubjectKeys subjects;

  /**
   * What a rewrap batch's first item into another key runs before it looks up its subject there
   * ({@link #prefetchRewrapTargetsWhenNeeded}); null: nothing. Batch engines only.
   */
  private Runnable beforeTargetSubject;

  /**
   * What an encryption whose subjects are not all cached runs before it asks the subject store:
   * after a stream's run found the store failing ({@link #prefetchSubjectsForEncryption}), its
   * error, so the run's other items fail with it at once instead of each waiting for the store in
   * turn; null: nothing. Engines of one stream or batch only.
   */
  private Runnable beforeSubjectLookup;

  /**
   * Asks {@code authorizer} before any key is loaded, and reports each operation to {@code
   * observer}; serves no subject-bound data.
   */
  public CryptoEngine(
      KeyCache keys, CipherPools pools, Authorizer authorizer, CryptoObserver observer) {
    this(keys, pools, authorizer, observer, null);
  }

  /** As the other constructor, with the subject keys of subject-bound data ({@code subjects}). */
  public CryptoEngine(
      KeyCache keys,
      CipherPools pools,
      Authorizer authorizer,
      CryptoObserver observer,
      SubjectKeys subjects) {
    this(keys, pools, pools, EncryptionKeys.perEncryption(keys), authorizer, observer, subjects);
  }

  private CryptoEngine(
      KeyCache keys,
      CipherPools pools,
      CipherSource ciphers,
      EncryptionKeys encryptionKeys,
      Authorizer authorizer,
      CryptoObserver observer,
      SubjectKeys subjects) {
    this.keys = keys;
    this.pools = pools;
    this.subjects = subjects;
    this.envelopes = new EnvelopeCipher(keys, encryptionKeys, ciphers, observer, subjects);
    this.authorizer = authorizer;
    this.observer = observer;
    this.legacy = new LegacyRewrap(keys, authorizer, observer, envelopes);
    this.transit = new TransitCiphertexts(keys, ciphers, authorizer, observer, envelopes);
    this.indexes = new BlindIndexes(keys, authorizer, observer);
    this.formatted = new FormattedValues(keys, authorizer, observer);
    this.reIndexing = new ReIndexing(authorizer, observer, envelopes, indexes);
  }

  /**
   * Runs a batch's work with ciphers borrowed from the pools once per mode for the whole batch
   * rather than once per item, and per-thread cipher keys forgotten once when it ends ({@link
   * ThreadKeyScope}). The engine handed to {@code work} is confined to this thread.
   */
  public <T> T inBatch(Function<CryptoEngine, T> work) {
    try (LeasedEngine leased = lease()) {
      // All on this thread: per-thread cipher keys are forgotten once at the end, not per item,
      // and the subject caches read the time once.
      return SubjectClock.batch(() -> ThreadKeyScope.run(() -> work.apply(leased.engine())));
    }
  }

  /**
   * An engine whose operations share one lease on the pools until it is closed, for work that spans
   * callbacks, such as a stream's items. Its operations must not run concurrently. Call it on the
   * thread serving the call: its successes are added up and told to the observer in bulk, as the
   * call's (see {@link CryptoObserver#forCall}), when it reports or closes.
   */
  public LeasedEngine lease() {
    CipherLease lease = new CipherLease(pools);
    BatchedObserver observed = new BatchedObserver(observer.forCall());
    return new LeasedEngine(
        new CryptoEngine(
            keys, pools, lease, EncryptionKeys.perLease(keys), authorizer, observed, subjects),
        lease,
        observed);
  }

  /**
   * Encrypts with the key's current version, or {@code keyVersion} if not 0. The request's bytes
   * are read into this thread's {@link WorkBuffers} (wiped before returning), and the ciphertext is
   * written into one array of its exact size: nothing else is allocated here.
   */
  public Encrypted encrypt(
      String keyName, int keyVersion, ByteString plaintext, ByteString context) {
    authorizer.check(Operation.ENCRYPT, keyName);
    return WorkBuffers.withInput(
        plaintext,
        context,
        (text, contextBytes, buffers) ->
            envelopes.encrypt(keyName, keyVersion, text, contextBytes, buffers));
  }

  /**
   * Encrypts for a subject: with the key of {@code subject} under {@code keyName} (made on first
   * use, wrapped under the key's current version), into a subject-bound ciphertext. {@code
   * keyVersion} must be 0: a subject key is always wrapped under the current version.
   */
  public Encrypted encrypt(
      String keyName,
      int keyVersion,
      ByteString plaintext,
      ByteString context,
      String subject,
      boolean renewErased) {
    if (keyVersion != 0) {
      throw new InvalidArgumentException(
          "key_version cannot be given with subject: a subject key is wrapped under the current"
              + " version");
    }
    SubjectKeysForEncryption resolved =
        subjectKeysForEncryption(Operation.ENCRYPT, keyName, List.of(subject), renewErased);
    return encrypt(resolved, 0, plaintext, context);
  }

  /**
   * Looks up (and creates where new) the keys of {@code subjectIds} under {@code keyName} for an
   * encrypting call, in one store round-trip for the lookups and one for the creations, once the
   * caller may {@code operation} (encrypt, or datakey) with the key and its current version's mode
   * binds subjects. A subject id that is not valid, erased (unless {@code renewErased}) or over the
   * creation quota maps to its error.
   */
  public SubjectKeysForEncryption subjectKeysForEncryption(
      Operation operation, String keyName, List<String> subjectIds, boolean renewErased) {
    authorizer.check(operation, keyName);
    EnvelopeHeader header = EnvelopeHeader.subjectBound(keyName, subjectMode(keyName));
    Object[] byItem =
        subjects.forEncryptionByIds(
            keyName,
            subjectIds,
            renewErased,
            CallerIdentity.current(),
            envelopes.wrapping,
            beforeSubjectLookup);
    return new SubjectKeysForEncryption(header, byItem);
  }

  /**
   * Whether encrypting for {@code subjectIds} under {@code keyName} needs no subject store: every
   * one's key is cached ({@link SubjectKeys#warmForEncryption}). Asked only for a caller who may
   * encrypt with the key: where a call runs shows in how long it takes, and a caller without the
   * grant must not learn from it which subjects were used lately. False when this engine serves no
   * subject-bound data (the call then fails at once, wherever it runs).
   */
  public boolean subjectsWarmForEncryption(String keyName, List<String> subjectIds) {
    return subjects != null
        && authorizer.allows(Operation.ENCRYPT, keyName)
        && subjects.warmForEncryption(keyName, subjectIds);
  }

  /**
   * Whether decrypting {@code ciphertext}, subject-bound under {@code keyName}, needs no subject
   * store: its subject's key is cached ({@link SubjectKeys#warmForDecryption}). Asked only for a
   * caller who may decrypt with the key, as {@link #subjectsWarmForEncryption} is.
   */
  public boolean subjectWarmForDecryption(String keyName, String ciphertext) {
    if (subjects == null || !authorizer.allows(Operation.DECRYPT, keyName)) {
      return false;
    }
    byte[] ref = Envelope.peekSubjectRef(ciphertext);
    return ref != null && subjects.warmForDecryption(keyName, SubjectRef.of(ref));
  }

  /**
   * Reads, and creates where new, the keys of {@code subjectIds} under {@code keyName} as {@link
   * #subjectKeysForEncryption} does (one store round trip for the lookups, one for the creations),
   * so that the encryptions that follow find them cached. Only a warm-up: nothing is refused here,
   * each encryption is authorized, checked and answered alone, and a caller who may not encrypt
   * with the key creates nothing.
   *
   * <p>On a stream's own engine, whose items run one at a time after it: if the store failed the
   * round-trip (a stalled or unreachable database), the items that follow and need the store fail
   * with its error at once, until a later prefetch reaches the store again; each would otherwise
   * wait for it in turn, up to {@code --subject-store-statement-timeout} apiece.
   */
  public void prefetchSubjectsForEncryption(
      String keyName, List<String> subjectIds, boolean renewErased) {
    if (subjects == null || subjectIds.isEmpty()) {
      return;
    }
    try {
      if (authorizer.allows(Operation.ENCRYPT, keyName)) {
        beforeSubjectLookup = null;
        subjectKeysForEncryption(Operation.ENCRYPT, keyName, subjectIds, renewErased);
      }
    } catch (SubjectStoreUnavailableException storeFailed) {
      beforeSubjectLookup =
          () -> {
            throw storeFailed;
          };
    } catch (RuntimeException e) {
      // Each item meets its own error when it is encrypted.
    }
  }

  /**
   * The current version's mode of {@code keyName}, if it binds subjects; else POLICY_DENIED. Also
   * when the engine serves no subject-bound data.
   */
  private CipherMode subjectMode(String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    KeyMetadata metadata = keys.describe(keyName);
    CipherMode mode = metadata.current().mode();
    if (subjects == null) {
      throw new KeyPolicyViolationException("this server serves no subject-bound data");
    }
    if (mode == null || !EnvelopeHeader.bindsSubjects(mode)) {
      throw new KeyPolicyViolationException(
          "key '"
              + keyName
              + "' cannot bind subjects: its current version is "
              + (mode == null ? metadata.current().type().typeName() : mode.headerName())
              + ", and only "
              + EnvelopeHeader.SUBJECT_MODES
              + " keys can");
    }
    return mode;
  }

  /**
   * Encrypts the call's {@code item}th subject-bound item, whose key {@code resolved} holds (or its
   * error).
   */
  public Encrypted encrypt(
      SubjectKeysForEncryption resolved, int item, ByteString plaintext, ByteString context) {
    SubjectKey key = resolved.keyFor(item);
    return WorkBuffers.withInput(
        plaintext,
        context,
        (text, contextBytes, buffers) ->
            envelopes.encryptSubject(resolved.header(), key, text, contextBytes, buffers));
  }

  /**
   * As {@link #prefetchSubjects}, but only once one of the items that follow needs a subject key
   * that is not cached: a batch of warm subjects parses no reference twice and reads nothing, one
   * with cold subjects still reads all their rows in one round-trip. After it the batch asks the
   * store no more for what that round-trip settled: an item whose row it found missing fails as a
   * forged reference does, and if it failed (a stalled or unreachable database) every later item
   * that needs a row fails with its error at once, instead of each waiting for the store in turn.
   * Only on a batch's own engine ({@link #inBatch}) or a stream's ({@link #lease}), whose items run
   * one at a time; a stream calls it once per run of queued items.
   */
  public void prefetchSubjectsWhenNeeded(List<String> ciphertexts) {
    if (subjects == null) {
      return;
    }
    envelopes.lazily(
        first -> {
          Set<SubjectRef> missing;
          try {
            missing = prefetchSubjects(ciphertexts);
          } catch (RuntimeException storeFailed) {
            envelopes.lazily(
                ref -> {
                  throw storeFailed;
                });
            throw storeFailed;
          }
          Consumer<SubjectRef> refuseMissing =
              ref -> {
                if (missing.contains(ref)) {
                  throw new DecryptionFailedException();
                }
              };
          envelopes.lazily(missing.isEmpty() ? null : refuseMissing);
          refuseMissing.accept(first);
        });
  }

  /**
   * Reads, in one store round-trip, the subject keys of those of {@code ciphertexts} that are
   * subject-bound, so the items that follow find them cached. Only a lookup: each item is still
   * authorized and checked as it is decrypted.
   */
  public Set<SubjectRef> prefetchSubjects(List<String> ciphertexts) {
    if (subjects == null) {
      return Set.of();
    }
    List<SubjectRef> refs = subjectRefs(ciphertexts);
    return refs.isEmpty() ? Set.of() : subjects.prefetch(refs);
  }

  /**
   * For a rewrap batch into {@code target}: once one of its items rewraps a subject-bound
   * ciphertext of another key, the subjects of all its items whose rows are known by then (after
   * the batch's lookup, {@link #prefetchSubjectsWhenNeeded}) and whose key the caller may decrypt
   * are looked up under {@code target}, and made there if new, in one round-trip each instead of
   * one per item. If that fails (the database), the batch's later items fail with its error at
   * once. Only on a batch's own engine ({@link #inBatch}), whose items run one at a time.
   */
  public void prefetchRewrapTargetsWhenNeeded(String target, List<String> ciphertexts) {
    if (subjects == null || target.isEmpty()) {
      return;
    }
    beforeTargetSubject =
        () -> {
          beforeTargetSubject = null;
          List<SubjectHash> known = new ArrayList<>();
          for (SubjectRef ref : subjectRefs(ciphertexts)) {
            SubjectHash hash =
                subjects.cachedSubject(
                    ref,
                    source ->
                        !source.equals(target) && authorizer.allows(Operation.DECRYPT, source));
            if (hash != null) {
              known.add(hash);
            }
          }
          if (known.isEmpty()) {
            return;
          }
          try {
            subjects.forEncryption(
                target, known, false, CallerIdentity.current(), envelopes.wrapping);
          } catch (RuntimeException storeFailed) {
            beforeTargetSubject =
                () -> {
                  throw storeFailed;
                };
            throw storeFailed;
          }
        };
  }

  /** The subject references of those of {@code ciphertexts} that are subject-bound. */
  private static List<SubjectRef> subjectRefs(List<String> ciphertexts) {
    List<SubjectRef> refs = new ArrayList<>();
    for (String ciphertext : ciphertexts) {
      // Cheap for key-bound ciphertexts: their header holds no "/s:".
      int close =
          ciphertext.indexOf('>', 0, Math.min(ciphertext.length(), Envelope.MAX_HEADER_BYTES));
      if (close < 0 || ciphertext.lastIndexOf("/s:", close) < 0) {
        continue;
      }
      byte[] ref = Envelope.peekSubjectRef(ciphertext);
      if (ref != null) {
        refs.add(SubjectRef.of(ref));
      }
    }
    return refs;
  }

  /**
   * Decrypts a ciphertext with the key version its header names; the plaintext is the one array
   * allocated here. A hot key's ciphertext is decoded where protobuf left it ({@link
   * CiphertextInput}).
   */
  public Decrypted decrypt(String ciphertext, ByteString context) {
    return decrypt(ciphertext, context, ExpectedKey.ANY);
  }

  /**
   * As {@link #decrypt(String, ByteString)}, refusing a ciphertext whose header names a key {@code
   * expected} does not match before the key is authorized, looked up or used. A Vault Transit
   * ciphertext ({@code vault:vN:…}) names no key: {@code expected} names it ({@link
   * TransitCiphertexts}).
   */
  public Decrypted decrypt(String ciphertext, ByteString context, ExpectedKey expected) {
    return decrypt(null, ciphertext, context, expected);
  }

  /**
   * As {@link #decrypt(String, ByteString, ExpectedKey)}, with {@code ciphertext}'s header {@code
   * peeked} by the caller, or null when it did not parse it: it is not looked up again.
   */
  public Decrypted decrypt(
      EnvelopeHeader peeked, String ciphertext, ByteString context, ExpectedKey expected) {
    if (TransitCiphertext.isTransit(ciphertext)) {
      return transit.decrypt(ciphertext, context, expected);
    }
    ParsedCiphertext parsed = CiphertextInput.parse(envelopes, peeked, ciphertext, context);
    try {
      EnvelopeHeader header = parsed.header();
      expect(expected, header.keyName());
      authorizer.check(Operation.DECRYPT, header.keyName());
      return new Decrypted(header, envelopes.decryptToArray(parsed));
    } finally {
      parsed.wipe();
    }
  }

  /**
   * Decrypts and encrypts again with the current version of {@code targetKeyName} (or of the
   * ciphertext's own key, if empty), bound to the same context. The plaintext never leaves this
   * thread's {@link WorkBuffers}, and is wiped there before this returns.
   */
  public ReEncrypted reEncrypt(String ciphertext, ByteString context, String targetKeyName) {
    return reEncrypt(ciphertext, context, targetKeyName, ExpectedKey.ANY);
  }

  /**
   * As {@link #reEncrypt(String, ByteString, String)}, refusing a ciphertext whose header names a
   * key {@code expected} does not match before anything is authorized, looked up or decrypted.
   */
  public ReEncrypted reEncrypt(
      String ciphertext, ByteString context, String targetKeyName, ExpectedKey expected) {
    return reEncrypt(null, ciphertext, context, targetKeyName, expected);
  }

  /**
   * As {@link #reEncrypt(String, ByteString, String, ExpectedKey)}, with {@code ciphertext}'s
   * header {@code peeked} by the caller, or null when it did not parse it: it is not looked up
   * again.
   */
  public ReEncrypted reEncrypt(
      EnvelopeHeader peeked,
      String ciphertext,
      ByteString context,
      String targetKeyName,
      ExpectedKey expected) {
    if (TransitCiphertext.isTransit(ciphertext)) {
      return transit.reEncrypt(ciphertext, context, targetKeyName, expected);
    }
    ParsedCiphertext parsed = CiphertextInput.parse(envelopes, peeked, ciphertext, context);
    try {
      EnvelopeHeader header = parsed.header();
      String source = header.keyName();
      expect(expected, source);
      String target = targetKeyName.isEmpty() ? source : targetKeyName;
      // On the mode the header names, before decrypting: a version whose mode differs fails as a
      // decryption failure, before any decryption, in KeyCache.forDecryption.
      authorizer.checkReEncrypt(source, header.type(), target);
      if (header.isSubjectBound()) {
        return reEncryptSubject(parsed, target);
      }
      return envelopes.decrypt(
          parsed,
          plaintext -> {
            // The payload buffer is free again: the new payload is written over the old one.
            Encrypted encrypted =
                envelopes.encrypt(target, 0, plaintext, parsed.context(), WorkBuffers.forThread());
            observer.succeeded(CryptoOperation.REWRAP, header, plaintext.length());
            return new ReEncrypted(encrypted, header.version());
          });
    } finally {
      parsed.wipe();
    }
  }

  /**
   * Rewraps a subject-bound ciphertext: under the same subject key with a fresh nonce when {@code
   * target} is its own key, else under the key of the same subject (by its hash, no id needed)
   * under {@code target}, made there if new.
   */
  private ReEncrypted reEncryptSubject(ParsedCiphertext parsed, String target) {
    EnvelopeHeader header = parsed.header();
    if (subjects == null) {
      throw new DecryptionFailedException();
    }
    SubjectRef ref = parsed.subjectRef();
    SubjectKey source =
        subjects.forDecryption(
            header.keyName(), ref, envelopes.wrapping, envelopes.beforeSubjectRead());
    EnvelopeHeader newHeader = EnvelopeHeader.subjectBound(target, subjectMode(target));
    SubjectKey key;
    if (target.equals(header.keyName())) {
      key = source;
    } else {
      Runnable prefetch = beforeTargetSubject;
      if (prefetch != null) {
        prefetch.run();
      }
      SubjectHash hash = source.subjectHash();
      Object resolved =
          subjects
              .forEncryption(
                  target, List.of(hash), false, CallerIdentity.current(), envelopes.wrapping)
              .get(hash);
      key = new SubjectKeysForEncryption(newHeader, new Object[] {resolved}).keyFor(0);
    }
    return envelopes.decrypt(
        parsed,
        plaintext -> {
          Encrypted encrypted =
              envelopes.encryptSubject(
                  newHeader, key, plaintext, parsed.context(), WorkBuffers.forThread());
          observer.succeeded(
              CryptoOperation.REWRAP,
              new KeyVersionRef(header.keyName(), source.wrapVersion(), header.mode()),
              plaintext.length());
          return new ReEncrypted(encrypted, 0);
        });
  }

  /**
   * Decrypts a ciphertext made before cipherd with its imported legacy key version and encrypts the
   * plaintext with the current version of {@code targetKeyName}, bound to {@code context}. Needs
   * {@code decrypt} on the legacy key and {@code encrypt} on the target, which must be another key,
   * as any rewrap across keys: checked before anything is decrypted. The plaintext never leaves
   * this thread's {@link WorkBuffers}, and is wiped there before this returns.
   */
  public ReEncrypted reEncryptLegacy(LegacyItem item, ByteString context, String targetKeyName) {
    return reEncryptLegacy(item, context, targetKeyName, ExpectedKey.ANY);
  }

  /**
   * As {@link #reEncryptLegacy(LegacyItem, ByteString, String)}, refusing an item whose legacy key
   * {@code expected} does not match before anything is authorized, looked up or decrypted.
   */
  public ReEncrypted reEncryptLegacy(
      LegacyItem item, ByteString context, String targetKeyName, ExpectedKey expected) {
    expect(expected, item.keyName());
    return legacy.reEncrypt(item, context, targetKeyName);
  }

  /**
   * Throws {@link UnexpectedKeyException}, told to the observer as a decrypt that reached no key
   * version (the name is the caller's ciphertext's, never a metrics label), unless {@code expected}
   * accepts {@code keyName}.
   */
  private void expect(ExpectedKey expected, String keyName) {
    expect(expected, keyName, observer);
  }

  /**
   * Checks a ciphertext of {@code keyName} against {@code expected}, reporting a refusal to {@code
   * observer} as a decryption that reached no key; for every operation that decrypts on a caller's
   * behalf (ReIndex too).
   */
  static void expect(ExpectedKey expected, String keyName, CryptoObserver observer) {
    try {
      expected.check(keyName);
    } catch (UnexpectedKeyException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  /**
   * Refuses, as a whole, a batch whose items all {@code operation} with {@code keyName}, when its
   * name is not valid or the caller may not: one error instead of one per item, so a refused
   * caller's answer does not grow with its request. Each item is still checked as it runs.
   */
  public void checkBatch(Operation operation, String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.check(operation, keyName);
  }

  /** The format-preserving operations (FormatPreservingService), on the same keys. */
  public FormattedValues formatted() {
    return formatted;
  }

  /** Blind indexes, with the same keys, authorizer and observer. */
  public BlindIndexes indexes() {
    return indexes;
  }

  /** ReIndex: blind indexes of ciphertexts' plaintexts, which never leave the server. */
  public ReIndexing reIndexing() {
    return reIndexing;
  }

  /**
   * A fresh random data key of {@code keySizeBits} (0: 256) and the same bytes encrypted with the
   * current version of {@code keyName}, bound to {@code context}. The plaintext key is the caller's
   * to wipe once it has been sent.
   */
  public DataKey generateDataKey(String keyName, int keySizeBits, ByteString context) {
    authorizer.check(Operation.DATAKEY, keyName);
    return DataKey.generate(envelopes, keyName, keySizeBits, context);
  }

  /**
   * As {@link #generateDataKey(String, int, ByteString)}, the data key sealed for {@code subject}
   * instead: a subject-bound ciphertext, unwrappable until the subject is erased.
   */
  public DataKey generateDataKey(
      String keyName, int keySizeBits, ByteString context, String subject, boolean renewErased) {
    SubjectKeysForEncryption resolved =
        subjectKeysForEncryption(Operation.DATAKEY, keyName, List.of(subject), renewErased);
    return DataKey.generate(
        keySizeBits,
        dataKey -> encrypt(resolved, 0, UnsafeByteOperations.unsafeWrap(dataKey), context));
  }

  /** Reads a ciphertext's header and its key's current version, without decrypting. */
  public Inspection inspect(String ciphertext) {
    EnvelopeHeader header = Envelope.peekHeader(ciphertext);
    authorizer.check(Operation.INSPECT, header.keyName());
    return new Inspection(header, keys.describe(header.keyName()).currentVersion());
  }

  /**
   * The cached keys, for the API's one routing question: whether a request's keys are in memory, so
   * it may be served on an event loop. Only asked; their use goes through this engine.
   */
  public KeyCache keys() {
    return keys;
  }
}

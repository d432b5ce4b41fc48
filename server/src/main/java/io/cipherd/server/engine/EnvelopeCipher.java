package io.cipherd.server.engine;

import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.subjectkeys.SubjectKey;
import io.cipherd.server.subjectkeys.SubjectKeyWrapping;
import io.cipherd.server.subjectkeys.SubjectKeys;
import io.cipherd.server.subjects.SubjectRef;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import javax.crypto.SecretKey;

/**
 * Ciphertexts in and out with the key versions the cache resolves: parses and decodes envelopes,
 * encrypts into one and decrypts out of one, and reports each step to the {@link CryptoObserver}.
 * Authorization is the caller's, done before any of these run. Works in the caller's arrays: the
 * only allocation is the ciphertext text an encryption returns.
 */
final class EnvelopeCipher {
  private final KeyCache keys;
  private final EncryptionKeys encryptionKeys;
  private final CipherSource source;
  private final CryptoObserver observer;
  private final SubjectKeys subjects;

  /** What a subject-bound item whose key and row are not cached runs first ({@link #lazily}). */
  private Consumer<SubjectRef> beforeSubjectRead;

  /** Subject keys wrapped and unwrapped by this cipher's key-bound encryption. */
  final SubjectKeyWrapping wrapping = new Wrapping();

  /**
   * Takes each operation's cipher from {@code source}: the pools, or one batch's lease on them;
   * subject-bound ciphertexts' keys from {@code subjects}.
   */
  EnvelopeCipher(
      KeyCache keys,
      EncryptionKeys encryptionKeys,
      CipherSource source,
      CryptoObserver observer,
      SubjectKeys subjects) {
    this.keys = keys;
    this.encryptionKeys = encryptionKeys;
    this.source = source;
    this.observer = observer;
    this.subjects = subjects;
  }

  /**
   * Makes a subject-bound item whose key is not cached run {@code prefetch} with its reference
   * (null: nothing) before it reads the subject store, until another is set ({@code prefetch} may
   * replace itself, and refuse the item's read by throwing); for a batch's own cipher, whose items
   * run one at a time.
   */
  void lazily(Consumer<SubjectRef> prefetch) {
    beforeSubjectRead = prefetch;
  }

  /** What {@link #lazily} set: run before a subject-bound item reads the store; null: nothing. */
  Consumer<SubjectRef> beforeSubjectRead() {
    return beforeSubjectRead;
  }

  /**
   * Seals {@code plaintext} under {@code key}, a subject key of {@code header}'s key name, into a
   * subject-bound ciphertext: {@code header ‖ base64(ref ‖ mode payload)}, the associated data
   * {@code header ‖ ref ‖ context}. The payload is written into {@code buffers}.
   */
  Encrypted encryptSubject(
      EnvelopeHeader header, SubjectKey key, Bytes plaintext, Bytes context, WorkBuffers buffers) {
    KeyVersionRef reported = wrappedBy(header, key);
    try {
      CipherMode mode = header.mode();
      byte[] ref = key.ref().bytes();
      byte[] payload = buffers.payload(mode.payloadLength(plaintext.length()));
      SecretKey secret = key.secretFor(mode, /* encrypting= */ true);
      int payloadLength =
          mode.family()
              .seal(
                  key.ciphers(source, secret),
                  secret,
                  Envelope.subjectAad(header, ref),
                  context,
                  plaintext,
                  payload);
      Encrypted encrypted =
          new Encrypted(
              header,
              UnsafeByteOperations.unsafeWrap(
                  Envelope.subjectText(header, ref, payload, payloadLength)));
      observer.succeeded(CryptoOperation.ENCRYPT, reported, plaintext.length());
      return encrypted;
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.ENCRYPT, reported, e);
      throw e;
    }
  }

  /**
   * The version that wraps {@code key}, as subject-bound work with it is reported (a subject-bound
   * header names no version): once its key and that version still serve calls, so a disabled key or
   * a version pending destruction refuses subject-bound data as it refuses its own.
   */
  private KeyVersionRef wrappedBy(EnvelopeHeader header, SubjectKey key) {
    KeyMetadata metadata = keys.describe(header.keyName());
    if (metadata.hasVersion(key.wrapVersion())) {
      LifecycleRules.checkServes(metadata, metadata.version(key.wrapVersion()));
    }
    return new KeyVersionRef(header.keyName(), key.wrapVersion(), header.mode());
  }

  /** Forgets the key version encryptions used last, so the next one asks the key cache. */
  void forgetKeys() {
    encryptionKeys.forget();
  }

  /**
   * Encrypts {@code plaintext} with the key's current version, or {@code keyVersion} if not 0,
   * bound to {@code context}; the payload is written into {@code buffers}, the ciphertext into one
   * array of its exact size.
   */
  Encrypted encrypt(
      String keyName, int keyVersion, Bytes plaintext, Bytes context, WorkBuffers buffers) {
    EnvelopeHeader resolved = null;
    UsableKey key = null;
    boolean made = false;
    try {
      key = encryptionKeys.forEncryption(keyName, keyVersion);
      resolved = key.header();
      checkContext(resolved, context.length());
      CipherMode mode = resolved.mode();
      byte[] payload = buffers.payload(mode.payloadLength(plaintext.length()));
      int payloadLength =
          mode.family()
              .seal(source, key.secret(), resolved.asciiBytes(), context, plaintext, payload);
      Encrypted encrypted =
          new Encrypted(
              resolved,
              UnsafeByteOperations.unsafeWrap(Envelope.text(resolved, payload, payloadLength)));
      made = true;
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, plaintext.length());
      return encrypted;
    } catch (RuntimeException e) {
      if (key != null && !made) {
        // Reserved against the cap, but no ciphertext left here: it counts no more.
        encryptionKeys.unused(key);
      }
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /** Work on a decrypted plaintext, which lies in this thread's {@link WorkBuffers}. */
  @FunctionalInterface
  interface PlaintextWork<T> {
    T apply(Bytes plaintext);
  }

  /**
   * Decrypts {@code ciphertext} with the key version its header names into this thread's plaintext
   * buffer, runs {@code work} on the plaintext, and wipes the buffer before returning, whether the
   * decryption or the work succeeded or threw. Authorization is the caller's, done before.
   */
  <T> T decrypt(ParsedCiphertext ciphertext, PlaintextWork<T> work) {
    int capacity = ciphertext.payload().length();
    byte[] plaintext = WorkBuffers.forThread().plaintext(capacity);
    try {
      int length = decrypt(ciphertext, plaintext);
      return work.apply(new Bytes(plaintext, 0, length));
    } finally {
      // All of it: a decryption that failed may have written part of the plaintext.
      WorkBuffers.wipe(plaintext, capacity);
    }
  }

  /**
   * Decrypts {@code ciphertext} into a new array that holds exactly its plaintext, for the caller
   * to keep. A mode without padding tells the plaintext's length from the payload's, and decrypts
   * straight into that array; a padded one decrypts through the thread's buffer ({@link
   * #decrypt(ParsedCiphertext, PlaintextWork)}), copied out.
   */
  byte[] decryptToArray(ParsedCiphertext ciphertext) {
    EnvelopeHeader parsedHeader = ciphertext.header();
    int payloadLength =
        ciphertext.payload().length()
            - (parsedHeader.isSubjectBound() ? EnvelopeHeader.SUBJECT_REF_LENGTH : 0);
    int length = parsedHeader.mode().plaintextLength(payloadLength);
    if (length < 0) {
      return decrypt(ciphertext, Bytes::toArray);
    }
    byte[] plaintext = new byte[length];
    try {
      int written = decrypt(ciphertext, plaintext);
      if (written != length) {
        throw new IllegalStateException("decrypted " + written + " bytes, expected " + length);
      }
      return plaintext;
    } catch (RuntimeException e) {
      // A decryption that failed may have written part of the plaintext.
      WorkBuffers.wipe(plaintext, length);
      throw e;
    }
  }

  /**
   * Decrypts {@code ciphertext} into {@code plaintext} (which needs as many bytes as the payload,
   * or for a mode without padding exactly its plaintext's); returns the plaintext's length.
   */
  private int decrypt(ParsedCiphertext ciphertext, byte[] plaintext) {
    EnvelopeHeader header = ciphertext.header();
    if (header.isSubjectBound()) {
      return decryptSubject(ciphertext, plaintext);
    }
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keys.forDecryption(header);
      resolved = key.header();
      Bytes context = ciphertext.context();
      checkContext(resolved, context.length());
      int length =
          resolved
              .mode()
              .family()
              .open(
                  source,
                  key.secret(),
                  resolved.asciiBytes(),
                  context,
                  ciphertext.payload(),
                  plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return length;
    } catch (RuntimeException e) {
      // Only a header whose key version exists is reported: a made-up name must not become a label.
      if (resolved == null && VersionRefusals.foundVersion(e)) {
        observer.refused(CryptoOperation.DECRYPT, header, e);
      } else {
        observer.failed(CryptoOperation.DECRYPT, resolved, e);
      }
      throw e;
    }
  }

  /**
   * Decrypts a subject-bound ciphertext with the key of the subject its payload's reference names:
   * SUBJECT_ERASED once that subject was erased, a decryption failure for a reference no subject
   * key has under the header's key name.
   */
  private int decryptSubject(ParsedCiphertext ciphertext, byte[] plaintext) {
    EnvelopeHeader header = ciphertext.header();
    KeyVersionRef reported = null;
    try {
      if (subjects == null) {
        throw new DecryptionFailedException();
      }
      Bytes payload = ciphertext.payload();
      int refLength = EnvelopeHeader.SUBJECT_REF_LENGTH;
      SubjectKey key =
          subjects.forDecryption(
              header.keyName(), ciphertext.subjectRef(), wrapping, beforeSubjectRead);
      reported = wrappedBy(header, key);
      Bytes context = ciphertext.context();
      Bytes sealed =
          new Bytes(payload.array(), payload.offset() + refLength, payload.length() - refLength);
      SecretKey secret = key.secretFor(header.mode(), /* encrypting= */ false);
      int length =
          header
              .mode()
              .family()
              .open(
                  key.ciphers(source, secret),
                  secret,
                  Envelope.subjectAad(header, payload.array(), payload.offset()),
                  context,
                  sealed,
                  plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, reported, length);
      return length;
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.DECRYPT, reported, e);
      throw e;
    }
  }

  /**
   * Subject keys wrapped as key-bound ciphertexts of the named key's current version, in arrays of
   * their own: wrapping runs in the middle of another operation that holds this thread's {@link
   * WorkBuffers}.
   */
  private final class Wrapping implements SubjectKeyWrapping {
    @Override
    public Wrapped wrap(String keyName, SubjectRef ref, byte[] key) {
      Encrypted wrapped =
          encrypt(
              keyName,
              0,
              Bytes.of(key),
              Bytes.of(SubjectKeyWrapping.context(ref)),
              new WorkBuffers());
      return new Wrapped(wrapped.ciphertext().toStringUtf8(), wrapped.keyVersion());
    }

    @Override
    public byte[] unwrap(String wrapped, SubjectRef ref) {
      byte[] text = wrapped.getBytes(StandardCharsets.US_ASCII);
      EnvelopeHeader header = Envelope.parseHeader(text, 0, text.length);
      if (header.isSubjectBound()) {
        throw new DecryptionFailedException();
      }
      byte[] payload = new byte[Envelope.maxPayloadLength(text.length)];
      int length = Envelope.decodePayload(header, text, 0, text.length, payload);
      return decryptToArray(
          new ParsedCiphertext(
              header, new Bytes(payload, 0, length), Bytes.of(SubjectKeyWrapping.context(ref))));
    }
  }

  /**
   * Parses the header of the ciphertext {@code text[0, length)}; one that does not parse counts as
   * a failed decryption.
   */
  EnvelopeHeader parseHeader(byte[] text, int length) {
    try {
      return Envelope.parseHeader(text, 0, length);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  /**
   * Decodes the payload of {@code text[0, length)} into {@code payload}; as {@link #parseHeader}
   * for failures.
   */
  int decodePayload(EnvelopeHeader header, byte[] text, int length, byte[] payload) {
    try {
      return Envelope.decodePayload(header, text, 0, length, payload);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  private static void checkContext(EnvelopeHeader header, int contextLength) {
    if (contextLength > 0 && !header.mode().isAead()) {
      throw new InvalidArgumentException(
          "context is only bound by AEAD modes; key '"
              + header.keyName()
              + "' version "
              + header.version()
              + " is "
              + header.mode().headerName());
    }
  }
}

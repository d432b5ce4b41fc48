package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.Mode;
import io.cipherd.server.crypto.NonceSource;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.crypto.envelope.Envelope;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.UsableKey;
import io.cipherd.server.pool.CipherLease;
import io.cipherd.server.pool.CipherPools;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.util.Arrays;
import java.util.function.Function;

/**
 * The operations of the crypto API on domain types: encrypt, decrypt, rewrap and inspect
 * ciphertexts, compute blind indexes and generate data keys with the cached keys, after the {@link
 * Authorizer} allows each. The gRPC services (unary, batch and stream alike) call it; ciphertexts
 * come as protobuf parses a string field.
 */
public final class CryptoEngine {
  private final KeyCache keys;
  private final CipherPools pools;
  private final PayloadCipher cipher;
  private final Authorizer authorizer;
  private final CryptoObserver observer;
  private final LegacyDecryption legacy;
  private final BlindIndexes indexes;
  private final EncryptionKeys encryptionKeys;

  /**
   * Asks {@code authorizer} before any key is loaded, and reports each operation to {@code
   * observer}.
   */
  public CryptoEngine(
      KeyCache keys, CipherPools pools, Authorizer authorizer, CryptoObserver observer) {
    this(keys, pools, pools, EncryptionKeys.perEncryption(keys), authorizer, observer);
  }

  private CryptoEngine(
      KeyCache keys,
      CipherPools pools,
      CipherSource ciphers,
      EncryptionKeys encryptionKeys,
      Authorizer authorizer,
      CryptoObserver observer) {
    this.keys = keys;
    this.encryptionKeys = encryptionKeys;
    this.pools = pools;
    this.cipher = new PayloadCipher(ciphers);
    this.authorizer = authorizer;
    this.observer = observer;
    this.legacy = new LegacyDecryption(keys, observer);
    this.indexes = new BlindIndexes(keys, authorizer, observer);
  }

  /**
   * Runs a batch's work with ciphers borrowed from the pools once per mode for the whole batch
   * rather than once per item. The engine handed to {@code work} is confined to this thread.
   */
  public <T> T inBatch(Function<CryptoEngine, T> work) {
    try (Leased leased = lease()) {
      return work.apply(leased.engine());
    }
  }

  /**
   * An engine whose operations share one lease on the pools until it is closed, for work that spans
   * callbacks, such as a stream's items. Its operations must not run concurrently.
   */
  public Leased lease() {
    CipherLease lease = new CipherLease(pools);
    return new Leased(
        new CryptoEngine(keys, pools, lease, EncryptionKeys.perLease(keys), authorizer, observer),
        lease);
  }

  /** An engine over a lease; closing returns the leased ciphers to the pools. */
  public record Leased(CryptoEngine engine, CipherLease lease) implements AutoCloseable {
    /** Returns the leased ciphers to the pools while there is no work; the engine stays usable. */
    public void returnCiphers() {
      lease.returnAll();
      forgetKeys();
    }

    /**
     * Forgets the key version the lease's encryptions used last, so the next one asks the key
     * cache.
     */
    public void forgetKeys() {
      engine.encryptionKeys.forget();
    }

    @Override
    public void close() {
      lease.close();
    }
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
        (input, length, contextLength, buffers) ->
            encryptAllowed(
                keyName, keyVersion, input, 0, length, input, length, contextLength, buffers));
  }

  /**
   * Decrypts a ciphertext with the key version its header names; the plaintext is the one array
   * allocated here. An ASCII ciphertext (every valid one) is read without an intermediate copy.
   */
  public Decrypted decrypt(String ciphertext, ByteString context) {
    return WorkBuffers.withInput(
        ciphertext,
        context,
        (input, textLength, contextLength, buffers) -> {
          EnvelopeHeader header = parseObserved(input, textLength);
          byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
          int payloadLength = decodeObserved(header, input, textLength, payload);
          authorizer.check(Operation.DECRYPT, header.keyName());
          byte[] plaintext = buffers.plaintext(payloadLength);
          try {
            int length =
                decryptAllowed(
                    header, payload, payloadLength, input, textLength, contextLength, plaintext);
            return new Decrypted(header, Arrays.copyOf(plaintext, length));
          } finally {
            // All of it: a decryption that failed may have written part of the plaintext.
            WorkBuffers.wipe(plaintext, payloadLength);
          }
        });
  }

  /**
   * Decrypts and encrypts again with the current version of {@code targetKeyName} (or of the
   * ciphertext's own key, if empty), bound to the same context. The plaintext never leaves this
   * thread's {@link WorkBuffers}, and is wiped there before this returns.
   */
  public ReEncrypted reEncrypt(String ciphertext, ByteString context, String targetKeyName) {
    return WorkBuffers.withInput(
        ciphertext,
        context,
        (input, textLength, contextLength, buffers) -> {
          EnvelopeHeader header = parseObserved(input, textLength);
          byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
          int payloadLength = decodeObserved(header, input, textLength, payload);
          String source = header.keyName();
          String target = targetKeyName.isEmpty() ? source : targetKeyName;
          // On the mode the header names, before decrypting: a version whose mode differs fails as
          // a
          // decryption failure, before any decryption, in KeyCache.forDecryption.
          authorizer.checkReEncrypt(source, header.mode(), target);
          byte[] plaintext = buffers.plaintext(payloadLength);
          try {
            int length =
                decryptAllowed(
                    header, payload, payloadLength, input, textLength, contextLength, plaintext);
            // The payload buffer is free again: the new payload is written over the old one.
            Encrypted encrypted =
                encryptAllowed(
                    target, 0, plaintext, 0, length, input, textLength, contextLength, buffers);
            observer.succeeded(CryptoOperation.REWRAP, header, length);
            return new ReEncrypted(encrypted, header.version());
          } finally {
            // All of it: a decryption that failed may have written part of the plaintext.
            WorkBuffers.wipe(plaintext, payloadLength);
          }
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
    if (targetKeyName.isEmpty()) {
      throw new InvalidArgumentException(
          "key_name is required with legacy: the key to rewrap the legacy ciphertext into");
    }
    if (targetKeyName.equals(item.keyName())) {
      throw new InvalidArgumentException(
          "key_name must name the key to rewrap into, not the legacy key itself: "
              + "a legacy key never encrypts");
    }
    authorizer.checkReEncrypt(item.keyName(), Mode.LEGACY, targetKeyName);
    return WorkBuffers.withInput(
        ByteString.EMPTY,
        context,
        (input, textLength, contextLength, buffers) -> {
          int capacity = item.data().length;
          byte[] plaintext = buffers.plaintext(capacity);
          try {
            LegacyDecryption.Opened opened = legacy.open(item, plaintext);
            Encrypted encrypted =
                encryptAllowed(
                    targetKeyName,
                    0,
                    plaintext,
                    0,
                    opened.length(),
                    input,
                    textLength,
                    contextLength,
                    buffers);
            observer.succeeded(CryptoOperation.REWRAP, opened.version(), opened.length());
            return new ReEncrypted(encrypted, opened.version().version());
          } finally {
            // All of it: a decryption that failed may have written part of the plaintext.
            WorkBuffers.wipe(plaintext, capacity);
          }
        });
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

  /** Blind indexes, with the same keys, authorizer and observer. */
  public BlindIndexes indexes() {
    return indexes;
  }

  /**
   * A fresh random data key of {@code keySizeBits} (0: 256) and the same bytes encrypted with the
   * current version of {@code keyName}, bound to {@code context}. The plaintext key is the caller's
   * to wipe once it has been sent.
   */
  public DataKey generateDataKey(String keyName, int keySizeBits, ByteString context) {
    authorizer.check(Operation.DATAKEY, keyName);
    int bits = keySizeBits == 0 ? 256 : keySizeBits;
    if (bits != 128 && bits != 256) {
      throw new InvalidArgumentException(
          "key_size_bits of a data key must be 128 or 256 (0 means 256), got " + keySizeBits);
    }
    byte[] dataKey = NonceSource.bytes(bits / 8);
    try {
      Encrypted wrapped =
          WorkBuffers.withInput(
              ByteString.EMPTY,
              context,
              (input, length, contextLength, buffers) ->
                  encryptAllowed(
                      keyName, 0, dataKey, 0, dataKey.length, input, 0, contextLength, buffers));
      return new DataKey(dataKey, wrapped);
    } catch (RuntimeException e) {
      Arrays.fill(dataKey, (byte) 0);
      throw e;
    }
  }

  /** Reads a ciphertext's header and its key's current version, without decrypting. */
  public Inspection inspect(String ciphertext) {
    EnvelopeHeader header = Envelope.peekHeader(ciphertext);
    authorizer.check(Operation.INSPECT, header.keyName());
    return new Inspection(header, keys.describe(header.keyName()).currentVersion());
  }

  /**
   * Whether encrypting with {@code keyName} needs no key-store call, so it may run on an event
   * loop.
   */
  public boolean canEncryptFromMemory(String keyName, int keyVersion) {
    return keys.isCached(keyName, keyVersion);
  }

  /**
   * Whether decrypting or inspecting {@code ciphertext} needs no key-store call. A header that does
   * not parse needs none either: it fails at once.
   */
  public boolean canDecryptFromMemory(String ciphertext) {
    EnvelopeHeader header;
    try {
      header = Envelope.peekHeader(ciphertext);
    } catch (RuntimeException e) {
      return true;
    }
    return keys.isCached(header.keyName(), header.version());
  }

  /**
   * Whether rewrapping {@code ciphertext} into {@code targetKeyName} (empty: its own key) needs no
   * key-store call.
   */
  public boolean canReEncryptFromMemory(String ciphertext, String targetKeyName) {
    return canDecryptFromMemory(ciphertext)
        && (targetKeyName.isEmpty() || canEncryptFromMemory(targetKeyName, 0));
  }

  /**
   * Whether rewrapping a legacy ciphertext of {@code legacyKeyName} version {@code legacyVersion}
   * (0: its newest) into {@code targetKeyName} needs no key-store call.
   */
  public boolean canReEncryptLegacyFromMemory(
      String legacyKeyName, int legacyVersion, String targetKeyName) {
    return keys.isCached(legacyKeyName, legacyVersion) && canEncryptFromMemory(targetKeyName, 0);
  }

  private Encrypted encryptAllowed(
      String keyName,
      int keyVersion,
      byte[] plaintext,
      int from,
      int length,
      byte[] context,
      int contextFrom,
      int contextLength,
      WorkBuffers buffers) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = encryptionKeys.forEncryption(keyName, keyVersion);
      resolved = key.header();
      checkContext(resolved, contextLength);
      byte[] payload = buffers.payload(resolved.mode().payloadLength(length));
      int payloadLength =
          cipher.encrypt(
              resolved.mode(),
              key.secret(),
              resolved.asciiBytes(),
              context,
              contextFrom,
              contextLength,
              plaintext,
              from,
              length,
              payload);
      Encrypted encrypted =
          new Encrypted(
              resolved,
              UnsafeByteOperations.unsafeWrap(Envelope.text(resolved, payload, payloadLength)));
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, length);
      return encrypted;
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /**
   * Decrypts {@code payload[0, payloadLength)} of a ciphertext whose header is {@code header}, with
   * {@code context[contextFrom, contextFrom + contextLength)}, into {@code plaintext} (which needs
   * {@code payloadLength} bytes); returns the plaintext's length.
   */
  private int decryptAllowed(
      EnvelopeHeader header,
      byte[] payload,
      int payloadLength,
      byte[] context,
      int contextFrom,
      int contextLength,
      byte[] plaintext) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keys.forDecryption(header);
      resolved = key.header();
      checkContext(resolved, contextLength);
      int length =
          cipher.decrypt(
              resolved.mode(),
              key.secret(),
              resolved.asciiBytes(),
              context,
              contextFrom,
              contextLength,
              payload,
              payloadLength,
              plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return length;
    } catch (RuntimeException e) {
      // Only a header whose key version exists is reported: a made-up name must not become a label.
      observer.failed(CryptoOperation.DECRYPT, resolved, e);
      throw e;
    }
  }

  /**
   * Parses the header of the ciphertext {@code text[0, length)}; one that does not parse counts as
   * a failed decryption.
   */
  private EnvelopeHeader parseObserved(byte[] text, int length) {
    try {
      return Envelope.parseHeader(text, 0, length);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.DECRYPT, null, e);
      throw e;
    }
  }

  /**
   * Decodes the payload of {@code text[0, length)} into {@code payload}; as {@link #parseObserved}
   * for failures.
   */
  private int decodeObserved(EnvelopeHeader header, byte[] text, int length, byte[] payload) {
    try {
      return Envelope.decodePayload(header, text, 0, length, payload);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.DECRYPT, null, e);
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

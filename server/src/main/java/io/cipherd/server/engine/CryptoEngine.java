package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.cipherd.server.InvalidArgumentException;
import io.cipherd.server.crypto.CipherLease;
import io.cipherd.server.crypto.Envelope;
import io.cipherd.server.crypto.EnvelopeHeader;
import io.cipherd.server.crypto.PayloadCipher;
import io.cipherd.server.keys.KeyRing;
import io.cipherd.server.keys.UsableKey;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.util.Arrays;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The operations of the crypto API on domain types: encrypt, decrypt, rewrap and inspect
 * ciphertexts with the key ring's keys. The gRPC services (unary, batch and stream alike) call it.
 */
public final class CryptoEngine {
  /** '<' + 64-character name + "/v" + 9 digits + ':' + longest mode name + '>', rounded up. */
  static final int MAX_HEADER_BYTES = 96;

  private final KeyRing keyRing;
  private final PayloadCipher cipher;
  private final Authorizer authorizer;
  private final CryptoObserver observer;

  public CryptoEngine(KeyRing keyRing, PayloadCipher cipher) {
    this(keyRing, cipher, Authorizer.ALLOW_ALL, CryptoObserver.NONE);
  }

  /** Every operation asks {@code authorizer} first, before any key is loaded. */
  public CryptoEngine(KeyRing keyRing, PayloadCipher cipher, Authorizer authorizer) {
    this(keyRing, cipher, authorizer, CryptoObserver.NONE);
  }

  public CryptoEngine(KeyRing keyRing, PayloadCipher cipher, CryptoObserver observer) {
    this(keyRing, cipher, Authorizer.ALLOW_ALL, observer);
  }

  /** Asks {@code authorizer} before any key is loaded, and reports each operation to {@code observer}. */
  public CryptoEngine(KeyRing keyRing, PayloadCipher cipher, Authorizer authorizer, CryptoObserver observer) {
    this.keyRing = keyRing;
    this.cipher = cipher;
    this.authorizer = authorizer;
    this.observer = observer;
  }

  /**
   * Runs a batch's work with ciphers borrowed from the pools once per mode for the whole batch
   * rather than once per item. The engine handed to {@code work} is confined to this thread.
   */
  public <T> T inBatch(Function<CryptoEngine, T> work) {
    try (CipherLease lease = cipher.lease()) {
      return work.apply(new CryptoEngine(keyRing, cipher.using(lease), authorizer, observer));
    }
  }

  public KeyRing keyRing() {
    return keyRing;
  }

  /** Encrypts with the key's current version, or {@code keyVersion} if not 0. */
  public Encrypted encrypt(String keyName, int keyVersion, byte[] plaintext, byte[] context) {
    return encrypt(keyName, keyVersion, UnsafeByteOperations.unsafeWrap(plaintext), UnsafeByteOperations.unsafeWrap(context));
  }

  /**
   * Encrypts with the key's current version, or {@code keyVersion} if not 0. The request's bytes
   * are read into this thread's {@link WorkBuffers} (wiped before returning), and the ciphertext is
   * written into one array of its exact size: nothing else is allocated here.
   */
  public Encrypted encrypt(String keyName, int keyVersion, ByteString plaintext, ByteString context) {
    authorizer.check(Operation.ENCRYPT, keyName);
    return withInput(plaintext, context, (input, length, contextLength, buffers) ->
        encryptAllowed(keyName, keyVersion, input, 0, length, input, length, contextLength, buffers));
  }

  private Encrypted encryptAllowed(String keyName, int keyVersion, byte[] plaintext, int from, int length,
      byte[] context, int contextFrom, int contextLength, WorkBuffers buffers) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keyRing.forEncryption(keyName, keyVersion);
      resolved = key.header();
      checkContext(resolved, contextLength);
      byte[] payload = buffers.payload(resolved.mode().payloadLength(length));
      int payloadLength = cipher.encrypt(
          resolved, key.secret(), context, contextFrom, contextLength, plaintext, from, length, payload);
      Encrypted encrypted = new Encrypted(resolved,
          UnsafeByteOperations.unsafeWrap(Envelope.text(resolved, payload, payloadLength)));
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, length);
      return encrypted;
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /** Decrypts a ciphertext given as its text's bytes. */
  public Decrypted decrypt(ByteString ciphertext, byte[] context) {
    return decrypt(ciphertext, UnsafeByteOperations.unsafeWrap(context));
  }

  /** Decrypts a ciphertext given as its text's bytes; the plaintext is the one array allocated here. */
  public Decrypted decrypt(ByteString ciphertext, ByteString context) {
    return withInput(ciphertext, context, this::decrypt);
  }

  /** Decrypts the ciphertext {@code input[0, textLength)} with the context that follows it. */
  private Decrypted decrypt(byte[] input, int textLength, int contextLength, WorkBuffers buffers) {
    EnvelopeHeader header = parseObserved(input, textLength);
    byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
    int payloadLength = decodeObserved(header, input, textLength, payload);
    authorizer.check(Operation.DECRYPT, header.keyName());
    byte[] plaintext = buffers.plaintext(payloadLength);
    try {
      int length = decryptAllowed(header, payload, payloadLength, input, textLength, contextLength, plaintext);
      return new Decrypted(header, Arrays.copyOf(plaintext, length));
    } finally {
      // All of it: a decryption that failed may have written part of the plaintext.
      WorkBuffers.wipe(plaintext, payloadLength);
    }
  }

  /**
   * As {@link #decrypt(ByteString, ByteString)} for a ciphertext as protobuf parses a string field;
   * an ASCII one (every valid one) is read without an intermediate copy.
   */
  public Decrypted decrypt(String ciphertext, ByteString context) {
    return withInput(ciphertext, context, this::decrypt);
  }

  /**
   * Decrypts {@code payload[0, payloadLength)} of a ciphertext whose header is {@code header}, with
   * {@code context[contextFrom, contextFrom + contextLength)}, into {@code plaintext} (which needs
   * {@code payloadLength} bytes); returns the plaintext's length.
   */
  private int decryptAllowed(EnvelopeHeader header, byte[] payload, int payloadLength,
      byte[] context, int contextFrom, int contextLength, byte[] plaintext) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keyRing.forDecryption(header);
      resolved = key.header();
      checkContext(resolved, contextLength);
      int length = cipher.decrypt(
          resolved, key.secret(), context, contextFrom, contextLength, payload, payloadLength, plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return length;
    } catch (RuntimeException e) {
      // Only a header whose key version exists is reported: a made-up name must not become a label.
      observer.failed(CryptoOperation.DECRYPT, resolved, e);
      throw e;
    }
  }

  /** As {@link #reEncrypt(ByteString, ByteString, String)}. */
  public ReEncrypted reEncrypt(ByteString ciphertext, byte[] context, String targetKeyName) {
    return reEncrypt(ciphertext, UnsafeByteOperations.unsafeWrap(context), targetKeyName);
  }

  /**
   * Decrypts and encrypts again with the current version of {@code targetKeyName} (or of the
   * ciphertext's own key, if empty), bound to the same context. The plaintext never leaves this
   * thread's {@link WorkBuffers}, and is wiped there before this returns.
   */
  public ReEncrypted reEncrypt(ByteString ciphertext, ByteString context, String targetKeyName) {
    return withInput(ciphertext, context, (input, textLength, contextLength, buffers) ->
        reEncrypt(input, textLength, contextLength, targetKeyName, buffers));
  }

  /**
   * As {@link #reEncrypt(ByteString, ByteString, String)} for a ciphertext as protobuf parses a
   * string field; an ASCII one (every valid one) is read without an intermediate copy.
   */
  public ReEncrypted reEncrypt(String ciphertext, ByteString context, String targetKeyName) {
    return withInput(ciphertext, context, (input, textLength, contextLength, buffers) ->
        reEncrypt(input, textLength, contextLength, targetKeyName, buffers));
  }

  private ReEncrypted reEncrypt(byte[] input, int textLength, int contextLength, String targetKeyName,
      WorkBuffers buffers) {
    EnvelopeHeader header = parseObserved(input, textLength);
    byte[] payload = buffers.payload(Envelope.maxPayloadLength(textLength));
    int payloadLength = decodeObserved(header, input, textLength, payload);
    String source = header.keyName();
    String target = targetKeyName.isEmpty() ? source : targetKeyName;
    authorizer.checkReEncrypt(source, target);
    byte[] plaintext = buffers.plaintext(payloadLength);
    try {
      int length = decryptAllowed(header, payload, payloadLength, input, textLength, contextLength, plaintext);
      // The payload buffer is free again: the new payload is written over the old one.
      Encrypted encrypted = encryptAllowed(target, 0, plaintext, 0, length, input, textLength, contextLength, buffers);
      return new ReEncrypted(encrypted, header.version());
    } finally {
      // All of it: a decryption that failed may have written part of the plaintext.
      WorkBuffers.wipe(plaintext, payloadLength);
    }
  }

  /** Reads a ciphertext's header and its key's current version, without decrypting. */
  public Inspection inspect(ByteString ciphertext) {
    EnvelopeHeader header = parseHeader(ciphertext);
    authorizer.check(Operation.INSPECT, header.keyName());
    return new Inspection(header, keyRing.describe(header.keyName()).currentVersion());
  }

  /** Whether encrypting with {@code keyName} needs no key-store call, so it may run on an event loop. */
  public boolean canEncryptFromMemory(String keyName, int keyVersion) {
    return keyRing.isCached(keyName, keyVersion);
  }

  /**
   * Whether decrypting {@code ciphertext} needs no key-store call. A header that does not parse
   * needs none either: it fails at once.
   */
  public boolean canDecryptFromMemory(ByteString ciphertext) {
    return canDecryptFromMemory(() -> parseHeader(ciphertext));
  }

  /** As {@link #canDecryptFromMemory(ByteString)} for a ciphertext as protobuf parses a string field. */
  public boolean canDecryptFromMemory(String ciphertext) {
    return canDecryptFromMemory(() -> parseHeader(ciphertext));
  }

  private boolean canDecryptFromMemory(Supplier<EnvelopeHeader> parsedHeader) {
    EnvelopeHeader header;
    try {
      header = parsedHeader.get();
    } catch (RuntimeException e) {
      return true;
    }
    return keyRing.isCached(header.keyName(), header.version());
  }

  /** As {@link #parseHeader(ByteString)} for a ciphertext as protobuf parses a string field. */
  public static EnvelopeHeader parseHeader(String ciphertext) {
    byte[] header = WorkBuffers.forThread().header();
    int length = Math.min(ciphertext.length(), MAX_HEADER_BYTES);
    if (!WorkBuffers.copyAscii(ciphertext, length, header)) {
      return parseHeader(ByteString.copyFromUtf8(ciphertext));
    }
    return Envelope.parseHeader(header, 0, length);
  }

  /** Parses only the header of a ciphertext, copying no more than a header's worth of bytes. */
  public static EnvelopeHeader parseHeader(ByteString ciphertext) {
    byte[] header = WorkBuffers.forThread().header();
    int length = Math.min(ciphertext.size(), MAX_HEADER_BYTES);
    ciphertext.copyTo(header, 0, 0, length);
    return Envelope.parseHeader(header, 0, length);
  }

  /** Work on a request laid out in the thread's input buffer as {@code text ‖ context}. */
  @FunctionalInterface
  private interface InputWork<T> {
    T apply(byte[] input, int textLength, int contextLength, WorkBuffers buffers);
  }

  /**
   * Copies {@code text ‖ context} into this thread's input buffer, runs {@code work} on it, and
   * wipes what was copied before returning, whether {@code work} succeeded or threw.
   */
  private static <T> T withInput(ByteString text, ByteString context, InputWork<T> work) {
    WorkBuffers buffers = WorkBuffers.forThread();
    int textLength = text.size();
    int used = textLength + context.size();
    byte[] input = buffers.input(used);
    try {
      text.copyTo(input, 0);
      context.copyTo(input, textLength);
      return work.apply(input, textLength, context.size(), buffers);
    } finally {
      WorkBuffers.wipe(input, used);
    }
  }

  /**
   * As {@link #withInput(ByteString, ByteString, InputWork)} for a ciphertext as protobuf parses a
   * string field: an ASCII one (every valid one) is read without an intermediate copy, any other as
   * its UTF-8 bytes, so it fails exactly as they do.
   */
  private static <T> T withInput(String text, ByteString context, InputWork<T> work) {
    WorkBuffers buffers = WorkBuffers.forThread();
    int textLength = text.length();
    int used = textLength + context.size();
    byte[] input = buffers.input(used);
    try {
      if (!WorkBuffers.copyAscii(text, textLength, input)) {
        return withInput(ByteString.copyFromUtf8(text), context, work);
      }
      context.copyTo(input, textLength);
      return work.apply(input, textLength, context.size(), buffers);
    } finally {
      WorkBuffers.wipe(input, used);
    }
  }

  /** Parses the header of the ciphertext {@code text[0, length)}; one that does not parse counts as a failed decryption. */
  private EnvelopeHeader parseObserved(byte[] text, int length) {
    try {
      return Envelope.parseHeader(text, 0, length);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.DECRYPT, null, e);
      throw e;
    }
  }

  /** Decodes the payload of {@code text[0, length)} into {@code payload}; as {@link #parseObserved} for failures. */
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
      throw new InvalidArgumentException("context is only bound by AEAD modes; key '" + header.keyName()
          + "' version " + header.version() + " is " + header.mode().headerName());
    }
  }
}

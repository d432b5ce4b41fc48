package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
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

/**
 * The operations of the crypto API on domain types: encrypt, decrypt, rewrap and inspect
 * ciphertexts with the key ring's keys. The gRPC services (unary, batch and stream alike) call it.
 */
public final class CryptoEngine {
  /** '<' + 64-character name + "/v" + 9 digits + ':' + longest mode name + '>', rounded up. */
  private static final int MAX_HEADER_BYTES = 96;

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
    authorizer.check(Operation.ENCRYPT, keyName);
    return encryptAllowed(keyName, keyVersion, plaintext, context);
  }

  private Encrypted encryptAllowed(String keyName, int keyVersion, byte[] plaintext, byte[] context) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keyRing.forEncryption(keyName, keyVersion);
      resolved = key.header();
      checkContext(resolved, context);
      Encrypted encrypted = Encrypted.of(resolved, cipher.encrypt(resolved, key.secret(), context, plaintext));
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, plaintext.length);
      return encrypted;
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /** Decrypts a ciphertext given as its text's bytes. */
  public Decrypted decrypt(ByteString ciphertext, byte[] context) {
    Envelope envelope = parseObserved(ciphertext);
    authorizer.check(Operation.DECRYPT, envelope.header().keyName());
    return decryptAllowed(envelope, context);
  }

  private Decrypted decryptAllowed(Envelope envelope, byte[] context) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keyRing.forDecryption(envelope.header());
      resolved = key.header();
      checkContext(resolved, context);
      Decrypted decrypted = new Decrypted(resolved, cipher.decrypt(envelope, key.secret(), context));
      observer.succeeded(CryptoOperation.DECRYPT, resolved, decrypted.plaintext().length);
      return decrypted;
    } catch (RuntimeException e) {
      // Only a header whose key version exists is reported: a made-up name must not become a label.
      observer.failed(CryptoOperation.DECRYPT, resolved, e);
      throw e;
    }
  }

  /**
   * Decrypts and encrypts again with the current version of {@code targetKeyName} (or of the
   * ciphertext's own key, if empty), bound to the same context. The plaintext never leaves here.
   */
  public ReEncrypted reEncrypt(ByteString ciphertext, byte[] context, String targetKeyName) {
    Envelope envelope = parseObserved(ciphertext);
    String source = envelope.header().keyName();
    String target = targetKeyName.isEmpty() ? source : targetKeyName;
    authorizer.checkReEncrypt(source, target);
    Decrypted decrypted = decryptAllowed(envelope, context);
    byte[] plaintext = decrypted.plaintext();
    try {
      return new ReEncrypted(encryptAllowed(target, 0, plaintext, context), decrypted.header().version());
    } finally {
      Arrays.fill(plaintext, (byte) 0);
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
    EnvelopeHeader header;
    try {
      header = parseHeader(ciphertext);
    } catch (RuntimeException e) {
      return true;
    }
    return keyRing.isCached(header.keyName(), header.version());
  }

  /** Parses only the header of a ciphertext, copying no more than a header's worth of bytes. */
  public static EnvelopeHeader parseHeader(ByteString ciphertext) {
    return Envelope.parseHeader(ciphertext.substring(0, Math.min(ciphertext.size(), MAX_HEADER_BYTES)).toByteArray());
  }

  /** Parses a ciphertext to decrypt; one that does not parse counts as a failed decryption. */
  private Envelope parseObserved(ByteString ciphertext) {
    try {
      return parse(ciphertext);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.DECRYPT, null, e);
      throw e;
    }
  }

  private static Envelope parse(ByteString ciphertext) {
    return Envelope.parse(ciphertext.toByteArray());
  }

  private static void checkContext(EnvelopeHeader header, byte[] context) {
    if (context.length > 0 && !header.mode().isAead()) {
      throw new InvalidArgumentException("context is only bound by AEAD modes; key '" + header.keyName()
          + "' version " + header.version() + " is " + header.mode().headerName());
    }
  }
}

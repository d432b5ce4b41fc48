package io.cipherd.server.engine;

import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.fpe.FormattedCipher;
import io.cipherd.server.crypto.fpe.FpeFormat;
import io.cipherd.server.crypto.fpe.FpeMask;
import io.cipherd.server.crypto.fpe.FpeTweak;
import io.cipherd.server.crypto.fpe.VersionPrefix;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableFpeKey;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;

/**
 * The operations of the FormatPreservingService on domain types: encrypt, decrypt, re-encrypt and
 * mask values of a format-preserving key's format with FF1 ({@link FormattedCipher}), after the
 * {@link Authorizer} allows each: {@code encrypt}, {@code decrypt}, a rewrap as ReEncrypt within
 * one key, and {@code mask} (or {@code decrypt}). The caller's refusal comes before anything about
 * the key or the value is looked at, so it is the same whatever the value. Each operation is
 * reported to the observer as the crypto API's are (a mask as a decryption: it reads the version's
 * data), so usage, the census, metrics and the audit trail see format-preserving traffic.
 */
public final class FormattedValues {
  private static final String NO_VERSION =
      "FF1 values carry no version: pass the key_version EncryptFormatted returned";

  private final KeyCache keys;
  private final Authorizer authorizer;
  private final CryptoObserver observer;

  FormattedValues(KeyCache keys, Authorizer authorizer, CryptoObserver observer) {
    this.keys = keys;
    this.authorizer = authorizer;
    this.observer = observer;
  }

  /** What a batch does with its key, authorized once for the whole batch. */
  public enum BatchKind {
    ENCRYPT,
    DECRYPT,
    REENCRYPT
  }

  /**
   * The items of a batch of {@code kind} with {@code keyName}, once the caller may: one refusal for
   * the whole batch, so a refused caller's answer does not grow with its request, and no item is
   * authorized again. Use it on a batch's engine ({@link CryptoEngine#inBatch}), so the items'
   * successes reach the observer once per key version.
   */
  public Batch batch(BatchKind kind, String keyName) {
    EnvelopeHeader.checkKeyName(keyName);
    switch (kind) {
      case ENCRYPT -> authorizer.check(Operation.ENCRYPT, keyName);
      case DECRYPT -> authorizer.check(Operation.DECRYPT, keyName);
      case REENCRYPT -> authorizer.checkReEncrypt(keyName, KeyType.FF1, keyName);
    }
    return new Batch(kind, keyName);
  }

  /** {@code value} encrypted with the key's current version; needs {@code encrypt}. */
  public Formatted encrypt(String keyName, String value, byte[] context) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.check(Operation.ENCRYPT, keyName);
    return encryptAllowed(keyName, value, context);
  }

  /** The plaintext of {@code value}, made by {@code keyVersion}; needs {@code decrypt}. */
  public Formatted decrypt(String keyName, String value, byte[] context, int keyVersion) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.check(Operation.DECRYPT, keyName);
    return decryptAllowed(keyName, value, context, keyVersion, PLAINTEXT);
  }

  /**
   * The mask of {@code value}'s plaintext, made by {@code keyVersion}; needs {@code mask} (or
   * {@code decrypt}). The plaintext never leaves this method.
   */
  public Formatted mask(String keyName, String value, byte[] context, int keyVersion) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.checkMask(keyName);
    return decryptAllowed(
        keyName,
        value,
        context,
        keyVersion,
        (key, plaintext) -> FpeMask.of(key.format(), plaintext));
  }

  /**
   * {@code value}, made by {@code keyVersion}, encrypted again with the key's current version under
   * the same context; needs what ReEncrypt within one key needs. The plaintext never leaves.
   */
  public Formatted reEncrypt(String keyName, String value, byte[] context, int keyVersion) {
    EnvelopeHeader.checkKeyName(keyName);
    authorizer.checkReEncrypt(keyName, KeyType.FF1, keyName);
    return reEncryptAllowed(keyName, value, context, keyVersion);
  }

  /** A batch's items with one key, which its caller may use as the batch does ({@link #batch}). */
  public final class Batch {
    private final BatchKind kind;
    private final String keyName;

    private Batch(BatchKind kind, String keyName) {
      this.kind = kind;
      this.keyName = keyName;
    }

    /** As {@link FormattedValues#encrypt}, in an ENCRYPT batch. */
    public Formatted encrypt(String value, byte[] context) {
      expect(BatchKind.ENCRYPT);
      return encryptAllowed(keyName, value, context);
    }

    /** As {@link FormattedValues#decrypt}, in a DECRYPT batch. */
    public Formatted decrypt(String value, byte[] context, int keyVersion) {
      expect(BatchKind.DECRYPT);
      return decryptAllowed(keyName, value, context, keyVersion, PLAINTEXT);
    }

    /** As {@link FormattedValues#reEncrypt}, in a REENCRYPT batch. */
    public Formatted reEncrypt(String value, byte[] context, int keyVersion) {
      expect(BatchKind.REENCRYPT);
      return reEncryptAllowed(keyName, value, context, keyVersion);
    }

    /** What the batch does with its key. */
    public BatchKind kind() {
      return kind;
    }

    private void expect(BatchKind wanted) {
      if (kind != wanted) {
        throw new IllegalStateException("a " + kind + " batch, not " + wanted);
      }
    }
  }

  private Formatted reEncryptAllowed(String keyName, String value, byte[] context, int keyVersion) {
    Formatted decrypted = decryptAllowed(keyName, value, context, keyVersion, PLAINTEXT);
    Formatted encrypted = encryptAllowed(keyName, decrypted.value(), context);
    observer.succeeded(
        CryptoOperation.REWRAP,
        new KeyVersionRef(keyName, decrypted.keyVersion(), KeyType.FF1),
        value.length());
    return new Formatted(encrypted.value(), encrypted.keyVersion(), decrypted.keyVersion());
  }

  private Formatted encryptAllowed(String keyName, String value, byte[] context) {
    KeyVersionRef resolved = null;
    try {
      byte[] tweak = FpeTweak.of(keyName, context);
      UsableFpeKey key = keys.forFormattedEncryption(keyName);
      resolved = key.version();
      String ciphertext;
      try {
        ciphertext =
            FormattedCipher.encrypt(key.format(), key.ff1(), tweak, value, key.version().version());
      } catch (RuntimeException e) {
        keys.unusedEncryption(key.key());
        throw e;
      }
      observer.succeeded(CryptoOperation.ENCRYPT, resolved, value.length());
      return new Formatted(ciphertext, key.version().version(), 0);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.ENCRYPT, resolved, e);
      throw e;
    }
  }

  /** What a decryption hands back of the plaintext: itself, or its mask. */
  private interface Reveal {
    String of(UsableFpeKey key, String plaintext);
  }

  private static final Reveal PLAINTEXT = (key, plaintext) -> plaintext;

  /** A decryption (or a mask, which reads the version's data as one), reported as DECRYPT. */
  private Formatted decryptAllowed(
      String keyName, String value, byte[] context, int keyVersion, Reveal reveal) {
    KeyVersionRef resolved = null;
    int version = 0;
    try {
      byte[] tweak = FpeTweak.of(keyName, context);
      version = versionOf(keyName, value, keyVersion);
      UsableFpeKey key = keys.forFormattedDecryption(keyName, version);
      resolved = key.version();
      String body = VersionPrefix.body(key.format(), value);
      String plaintext = FormattedCipher.decrypt(key.format(), key.ff1(), tweak, body);
      String revealed = reveal.of(key, plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, plaintext.length());
      return new Formatted(revealed, key.version().version(), 0);
    } catch (RuntimeException e) {
      if (resolved == null && version > 0 && VersionRefusals.foundVersion(e)) {
        observer.refused(
            CryptoOperation.DECRYPT, new KeyVersionRef(keyName, version, KeyType.FF1), e);
      } else {
        observer.failed(CryptoOperation.DECRYPT, resolved, e);
      }
      throw e;
    }
  }

  /**
   * The version that made {@code value}: {@code keyVersion}, or the value's prefix if the key's
   * format writes one (then {@code keyVersion} must be 0 or the same).
   */
  private int versionOf(String keyName, String value, int keyVersion) {
    if (keyVersion < 0) {
      throw new InvalidArgumentException("key_version must not be negative");
    }
    FpeFormat format = keys.describe(keyName).current().fpe();
    if (format == null || format.versionPrefixLength() == 0) {
      if (keyVersion == 0) {
        throw new InvalidArgumentException(NO_VERSION);
      }
      return keyVersion;
    }
    int prefixed = VersionPrefix.read(format, value);
    if (keyVersion != 0 && keyVersion != prefixed) {
      throw new InvalidArgumentException(
          "key_version "
              + keyVersion
              + " is not the version the value's prefix names; pass 0 to use the prefix");
    }
    if (prefixed == 0) {
      throw new InvalidArgumentException(
          "the value's version prefix names version 0, which no key has: it was not made by this"
              + " key");
    }
    return prefixed;
  }
}

package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.transit.TransitCiphertext;
import io.cipherd.server.crypto.transit.TransitKdf;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.WipeableSecretKey;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.util.Arrays;

/**
 * Decrypt and ReEncrypt of ciphertexts Vault Transit made ({@code vault:vN:…}) with a key imported
 * from it, version numbers kept: the caller names the key in {@code expected_key}, exactly, as
 * Transit's API names it in the path. Only an imported gcm or chacha version opens one, with no
 * header bound: for a version of a plain Transit key the request's context is Transit's {@code
 * associated_data}; for a version of a derived one ({@link TransitKdf}) it is Transit's {@code
 * context}, the key is derived from it, and the associated data is empty. Whatever does not fit
 * (another key's ciphertext, a version the key lacks or made itself, a short payload, other
 * associated data) fails as "decryption failed" and nothing more. The decrypt is reported to the
 * {@link CryptoObserver} under the version's own header, so the census counts it.
 */
final class TransitCiphertexts {
  private final KeyCache keys;
  private final CipherSource source;
  private final Authorizer authorizer;
  private final CryptoObserver observer;
  private final EnvelopeCipher envelopes;

  TransitCiphertexts(
      KeyCache keys,
      CipherSource source,
      Authorizer authorizer,
      CryptoObserver observer,
      EnvelopeCipher envelopes) {
    this.keys = keys;
    this.source = source;
    this.authorizer = authorizer;
    this.observer = observer;
    this.envelopes = envelopes;
  }

  /** As {@link CryptoEngine#decrypt(String, ByteString, ExpectedKey)} for a Transit ciphertext. */
  Decrypted decrypt(String ciphertext, ByteString context, ExpectedKey expected) {
    TransitCiphertext parsed = parse(ciphertext);
    String keyName = keyName(expected);
    authorizer.check(Operation.DECRYPT, keyName);
    return WorkBuffers.withInput(
        ByteString.EMPTY,
        context,
        (text, contextBytes, buffers) -> {
          int capacity = parsed.payload().length;
          byte[] plaintext = buffers.plaintext(capacity);
          try {
            Opened opened = open(keyName, parsed, contextBytes, plaintext);
            return new Decrypted(
                opened.header(), new Bytes(plaintext, 0, opened.length()).toArray());
          } finally {
            // All of it: a decryption that failed may have written part of the plaintext.
            WorkBuffers.wipe(plaintext, capacity);
          }
        });
  }

  /**
   * As {@link CryptoEngine#reEncrypt(String, ByteString, String, ExpectedKey)} for a Transit
   * ciphertext: into the current version of {@code targetKeyName}, or of the named key if empty.
   * Transit's data comes from outside cipherd, so even within one key this needs what a rewrap
   * across keys needs: {@code decrypt} on the key and {@code encrypt} on the target.
   */
  ReEncrypted reEncrypt(
      String ciphertext, ByteString context, String targetKeyName, ExpectedKey expected) {
    TransitCiphertext parsed = parse(ciphertext);
    String keyName = keyName(expected);
    String target = targetKeyName.isEmpty() ? keyName : targetKeyName;
    EnvelopeHeader.checkKeyName(target);
    authorizer.check(Operation.DECRYPT, keyName);
    authorizer.check(Operation.ENCRYPT, target);
    return WorkBuffers.withInput(
        ByteString.EMPTY,
        context,
        (text, contextBytes, buffers) -> {
          int capacity = parsed.payload().length;
          byte[] plaintext = buffers.plaintext(capacity);
          try {
            Opened opened = open(keyName, parsed, contextBytes, plaintext);
            Bytes decrypted = new Bytes(plaintext, 0, opened.length());
            Encrypted encrypted = envelopes.encrypt(target, 0, decrypted, contextBytes, buffers);
            observer.succeeded(CryptoOperation.REWRAP, opened.header(), opened.length());
            return new ReEncrypted(encrypted, parsed.version());
          } finally {
            WorkBuffers.wipe(plaintext, capacity);
          }
        });
  }

  /** A decrypted Transit ciphertext: the version that opened it and the plaintext's length. */
  private record Opened(EnvelopeHeader header, int length) {}

  /**
   * Opens {@code parsed} with version {@code parsed.version()} of {@code keyName} into {@code
   * plaintext}, which needs as many bytes as the payload.
   */
  private Opened open(String keyName, TransitCiphertext parsed, Bytes context, byte[] plaintext) {
    EnvelopeHeader resolved = null;
    try {
      KeyVersionInfo info = version(keyName, parsed);
      if (info.isTransitDerived() && context.isEmpty()) {
        throw new InvalidArgumentException(
            "version "
                + info.version()
                + " of key '"
                + keyName
                + "' was imported from a derived Vault Transit key: set context to the Transit"
                + " context the ciphertext was made with");
      }
      UsableKey key = keys.forDecryption(new EnvelopeHeader(keyName, info.version(), info.mode()));
      resolved = key.header();
      Bytes payload = Bytes.of(parsed.payload());
      if (resolved.mode().payloadLengthProblem(payload.length()) != null) {
        // Shorter than a nonce and a tag: Transit never made it.
        throw new DecryptionFailedException();
      }
      int length =
          info.isTransitDerived()
              ? openDerived(info, key, context, payload, plaintext)
              : resolved
                  .mode()
                  .family()
                  .open(source, key.secret(), /* header= */ null, context, payload, plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return new Opened(resolved, length);
    } catch (RuntimeException e) {
      // Only a version that opens Transit ciphertexts is a label, as for other decrypts.
      observer.failed(CryptoOperation.DECRYPT, resolved, e);
      throw e;
    }
  }

  /**
   * Opens {@code payload} with the key {@code info}'s KDF derives from the version's bytes and
   * {@code context} (Transit's context, not empty), with no associated data, as Transit seals for a
   * derived key; the derived key is wiped afterwards.
   */
  private int openDerived(
      KeyVersionInfo info, UsableKey key, Bytes context, Bytes payload, byte[] plaintext) {
    byte[] master = key.secret().getEncoded();
    WipeableSecretKey derived;
    try {
      derived =
          new WipeableSecretKey(
              info.transitKdf().key(master, context, info.keySizeBits() / 8),
              info.mode().keyAlgorithm());
    } finally {
      Arrays.fill(master, (byte) 0);
    }
    try {
      return info.mode()
          .family()
          .open(source, derived, /* header= */ null, Bytes.EMPTY, payload, plaintext);
    } finally {
      derived.destroy();
    }
  }

  /**
   * The version that opens {@code parsed}: an imported gcm or chacha version of {@code keyName},
   * the only kind Transit's ciphertexts can come from. Any other is a decryption failure, told
   * apart from no other.
   */
  private KeyVersionInfo version(String keyName, TransitCiphertext parsed) {
    KeyMetadata metadata = keys.describe(keyName);
    if (!metadata.hasVersion(parsed.version())) {
      throw new DecryptionFailedException();
    }
    KeyVersionInfo info = metadata.version(parsed.version());
    CipherMode mode = info.mode();
    if (!info.imported() || (mode != CipherMode.GCM && mode != CipherMode.CHACHA)) {
      throw new DecryptionFailedException();
    }
    return info;
  }

  /** Parses a Transit ciphertext; one that does not parse counts as a failed decryption. */
  private TransitCiphertext parse(String ciphertext) {
    try {
      return TransitCiphertext.parse(ciphertext);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
  }

  /**
   * The key a Transit ciphertext is under: {@code expected}, which must name one key exactly, since
   * the ciphertext names none.
   */
  private String keyName(ExpectedKey expected) {
    String value = expected.toString();
    if (expected.isAny() || value.endsWith("*")) {
      InvalidArgumentException e =
          new InvalidArgumentException(
              "a Vault Transit ciphertext ('vault:vN:...') names no key: set expected_key to the"
                  + " exact name of the key it was imported into");
      observer.failedUnresolved(CryptoOperation.DECRYPT, e);
      throw e;
    }
    return value;
  }
}

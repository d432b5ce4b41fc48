package io.cipherd.server.engine;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.KeyType;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.legacy.LegacyDecryptor;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableLegacyKey;
import io.cipherd.server.security.Authorizer;

/**
 * ReEncrypt of data made before cipherd: decrypts it with an imported legacy key version and
 * encrypts the plaintext into another key. The decrypt is reported to the {@link CryptoObserver} as
 * any decrypt is, under the legacy version's name and number, with type {@code legacy}.
 */
final class LegacyRewrap {
  private final KeyCache keys;
  private final Authorizer authorizer;
  private final CryptoObserver observer;
  private final EnvelopeCipher envelopes;

  LegacyRewrap(
      KeyCache keys, Authorizer authorizer, CryptoObserver observer, EnvelopeCipher envelopes) {
    this.keys = keys;
    this.authorizer = authorizer;
    this.observer = observer;
    this.envelopes = envelopes;
  }

  /** As {@link CryptoEngine#reEncryptLegacy}. */
  ReEncrypted reEncrypt(LegacyItem item, ByteString context, String targetKeyName) {
    if (targetKeyName.isEmpty()) {
      throw new InvalidArgumentException(
          "key_name is required with legacy: the key to rewrap the legacy ciphertext into");
    }
    if (targetKeyName.equals(item.keyName())) {
      throw new InvalidArgumentException(
          "key_name must name the key to rewrap into, not the legacy key itself: "
              + "a legacy key never encrypts");
    }
    authorizer.checkReEncrypt(item.keyName(), KeyType.LEGACY, targetKeyName);
    return WorkBuffers.withInput(
        ByteString.EMPTY,
        context,
        (text, contextBytes, buffers) -> {
          int capacity = item.data().length;
          byte[] plaintext = buffers.plaintext(capacity);
          try {
            Opened opened = open(item, plaintext);
            Encrypted encrypted =
                envelopes.encrypt(
                    targetKeyName,
                    0,
                    new Bytes(plaintext, 0, opened.length()),
                    contextBytes,
                    buffers);
            observer.succeeded(CryptoOperation.REWRAP, opened.version(), opened.length());
            return new ReEncrypted(encrypted, opened.version().version());
          } finally {
            // All of it: a decryption that failed may have written part of the plaintext.
            WorkBuffers.wipe(plaintext, capacity);
          }
        });
  }

  /** A decrypted legacy item: the version that decrypted it and the plaintext's length. */
  private record Opened(KeyVersionRef version, int length) {}

  /** Decrypts {@code item} into {@code plaintext}, which needs {@code item.data().length} bytes. */
  private Opened open(LegacyItem item, byte[] plaintext) {
    KeyVersionRef resolved = null;
    try {
      UsableLegacyKey key = keys.forLegacyDecryption(item.keyName(), item.keyVersion());
      resolved = key.version();
      int length =
          LegacyDecryptor.decrypt(key.format(), key.secret(), item.data(), item.iv(), plaintext);
      observer.succeeded(CryptoOperation.DECRYPT, resolved, length);
      return new Opened(resolved, length);
    } catch (RuntimeException e) {
      // As for other decrypts, a key version that was not found is not a label.
      observer.failed(CryptoOperation.DECRYPT, resolved, e);
      throw e;
    }
  }
}

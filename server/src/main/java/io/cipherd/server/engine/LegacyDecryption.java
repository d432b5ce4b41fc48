package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.legacy.LegacyDecryptor;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.UsableLegacyKey;

/**
 * The decrypting half of a legacy rewrap, reported to the {@link CryptoObserver} as any decrypt is:
 * under the legacy version's name and number, with mode {@code legacy}. Authorization is the
 * caller's ({@link CryptoEngine#reEncryptLegacy}).
 */
final class LegacyDecryption {
  private final KeyCache keys;
  private final CryptoObserver observer;

  LegacyDecryption(KeyCache keys, CryptoObserver observer) {
    this.keys = keys;
    this.observer = observer;
  }

  /**
   * A decrypted legacy item: the version that decrypted it (as a header, mode legacy) and the
   * plaintext's length.
   */
  record Opened(EnvelopeHeader version, int length) {}

  /** Decrypts {@code item} into {@code plaintext}, which needs {@code item.data().length} bytes. */
  Opened open(LegacyItem item, byte[] plaintext) {
    EnvelopeHeader resolved = null;
    try {
      UsableLegacyKey key = keys.forLegacyDecryption(item.keyName(), item.keyVersion());
      resolved = key.header();
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

package io.cipherd.server.engine;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import io.cipherd.server.crypto.index.BlindIndex;
import io.cipherd.server.crypto.index.Normalization;
import io.cipherd.server.keys.KeyCache;
import io.cipherd.server.keys.UsableKey;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The blind-index operations of the crypto API (ComputeIndex and its batch): HMAC-SHA-256 of a
 * normalized value under an index key version, after the {@link Authorizer} allows {@code index}.
 */
public final class BlindIndexes {
  private final KeyCache keys;
  private final Authorizer authorizer;
  private final CryptoObserver observer;

  BlindIndexes(KeyCache keys, Authorizer authorizer, CryptoObserver observer) {
    this.keys = keys;
    this.authorizer = authorizer;
    this.observer = observer;
  }

  /**
   * The blind index of {@code value} under the index key's current version (or {@code keyVersion}
   * if not 0), normalized as asked and cut to {@code lengthBytes} (0: the whole HMAC).
   */
  public Indexed compute(String keyName, int keyVersion, byte[] value, Normalization normalization, int lengthBytes) {
    authorizer.check(Operation.INDEX, keyName);
    return indexAllowed(keyName, keyVersion, value, normalization, BlindIndex.length(lengthBytes));
  }

  /** The blind index of {@code value} under every version of the index key that may still be used, newest first. */
  public List<Indexed> computeAllVersions(String keyName, byte[] value, Normalization normalization, int lengthBytes) {
    authorizer.check(Operation.INDEX, keyName);
    int length = BlindIndex.length(lengthBytes);
    List<Indexed> indexes = new ArrayList<>();
    for (int version : keys.usableVersions(keyName)) {
      indexes.add(indexAllowed(keyName, version, value, normalization, length));
    }
    return indexes;
  }

  private Indexed indexAllowed(String keyName, int keyVersion, byte[] value, Normalization normalization, int length) {
    EnvelopeHeader resolved = null;
    try {
      UsableKey key = keys.forIndexing(keyName, keyVersion);
      resolved = key.header();
      byte[] normalized = normalization.apply(value);
      try {
        Indexed indexed = new Indexed(resolved.version(), BlindIndex.compute(key.secret(), normalized, length));
        observer.succeeded(CryptoOperation.INDEX, resolved, value.length);
        return indexed;
      } finally {
        if (normalized != value) {
          Arrays.fill(normalized, (byte) 0);
        }
      }
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.INDEX, resolved, e);
      throw e;
    }
  }
}

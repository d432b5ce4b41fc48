package io.cipherd.server.engine;

import io.cipherd.server.crypto.Bytes;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.index.BlindIndex;
import io.cipherd.server.crypto.index.Normalization;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.security.Authorizer;
import io.cipherd.server.security.Operation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The blind-index operations of the crypto API (ComputeIndex and its batch, and the index half of
 * ReIndex): HMAC-SHA-256 of a normalized value under an index key version, after the {@link
 * Authorizer} allows {@code index}.
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
  public Indexed compute(
      String keyName, int keyVersion, byte[] value, Normalization normalization, int lengthBytes) {
    authorizer.check(Operation.INDEX, keyName);
    int length = BlindIndex.length(lengthBytes);
    byte[] normalized = normalized(value, normalization);
    try {
      return indexAllowed(
          keyName, keyVersion, normalized, value.length, length, CryptoOperation.INDEX);
    } finally {
      wipeIfCopy(normalized, value);
    }
  }

  /**
   * The blind index of {@code value} under every version of the index key that may still be used,
   * newest first; the value is normalized once for all of them.
   */
  public List<Indexed> computeAllVersions(
      String keyName, byte[] value, Normalization normalization, int lengthBytes) {
    authorizer.check(Operation.INDEX, keyName);
    int length = BlindIndex.length(lengthBytes);
    byte[] normalized = normalized(value, normalization);
    try {
      List<Indexed> indexes = new ArrayList<>();
      List<Integer> versions = keys.usableVersions(keyName);
      for (int i = 0; i < versions.size(); i++) {
        // The first is the current version, the one asked for: an index written or looked up as
        // any other. The older ones are lookups of rows not yet re-indexed, counted apart so that
        // they do not keep those versions in use.
        CryptoOperation operation = i == 0 ? CryptoOperation.INDEX : CryptoOperation.INDEX_LOOKUP;
        indexes.add(
            indexAllowed(keyName, versions.get(i), normalized, value.length, length, operation));
      }
      return indexes;
    } finally {
      wipeIfCopy(normalized, value);
    }
  }

  /**
   * {@code value} as {@code normalization} makes it; a value it refuses counts as a failed index.
   */
  private byte[] normalized(byte[] value, Normalization normalization) {
    try {
      return normalization.apply(value);
    } catch (RuntimeException e) {
      observer.failedUnresolved(CryptoOperation.INDEX, e);
      throw e;
    }
  }

  /**
   * The current version of index key {@code keyName}, for {@link #indexWith}, after the {@link
   * Authorizer} allows {@code index}: resolved before a re-index decrypts anything, so an index key
   * that cannot serve fails the call without a decryption.
   */
  UsableKey currentIndexKey(String keyName) {
    authorizer.check(Operation.INDEX, keyName);
    try {
      return keys.forIndexing(keyName, 0);
    } catch (RuntimeException e) {
      observer.failed(CryptoOperation.INDEX, null, e);
      throw e;
    }
  }

  /**
   * The blind index of {@code value} (a plaintext in a work buffer, left to the caller to wipe)
   * under {@code key}, normalized as asked and cut to {@code length} bytes (from {@link
   * BlindIndex#length}); the copies made here are wiped.
   */
  Indexed indexWith(UsableKey key, Bytes value, Normalization normalization, int length) {
    int valueLength = value.length();
    byte[] copy = value.toArray();
    byte[] normalized = null;
    try {
      normalized = normalized(copy, normalization);
      Indexed indexed =
          new Indexed(
              key.version().version(), BlindIndex.compute(key.secret(), normalized, length));
      observer.succeeded(CryptoOperation.INDEX, key.version(), valueLength);
      return indexed;
    } catch (RuntimeException e) {
      if (normalized != null) {
        observer.failed(CryptoOperation.INDEX, key.version(), e);
      }
      throw e;
    } finally {
      if (normalized != null) {
        wipeIfCopy(normalized, copy);
      }
      Arrays.fill(copy, (byte) 0);
    }
  }

  private Indexed indexAllowed(
      String keyName,
      int keyVersion,
      byte[] normalized,
      int valueLength,
      int length,
      CryptoOperation operation) {
    KeyVersionRef resolved = null;
    try {
      UsableKey key = keys.forIndexing(keyName, keyVersion);
      resolved = key.version();
      Indexed indexed =
          new Indexed(resolved.version(), BlindIndex.compute(key.secret(), normalized, length));
      observer.succeeded(operation, resolved, valueLength);
      return indexed;
    } catch (RuntimeException e) {
      observer.failed(operation, resolved, e);
      throw e;
    }
  }

  /** Overwrites the normalized copy of a value (a secret); the caller's own array is left to it. */
  private static void wipeIfCopy(byte[] normalized, byte[] value) {
    if (normalized != value) {
      Arrays.fill(normalized, (byte) 0);
    }
  }
}

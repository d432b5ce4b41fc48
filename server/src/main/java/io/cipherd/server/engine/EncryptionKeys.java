package io.cipherd.server.engine;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keycache.UsableKey;
import io.cipherd.server.usage.EncryptionBlock;

/**
 * Where an engine finds the key version to encrypt with, each encryption reserved against the
 * version's encryption limit before it runs ({@link KeyCache#forEncryption}). An engine of its own
 * asks the {@link KeyCache} for every encryption. A leased engine (a batch, a stream's run of
 * items) keeps the last answer, so items that encrypt with one key pay the lookup and the policy's
 * checks once rather than per item; its further encryptions with that version come from an {@link
 * EncryptionBlock}, reserved in blocks while the version is far from its limit and counted once
 * when the lease forgets, or one by one near the limit ({@link KeyCache#reserveAnother}), so the
 * cap holds exactly whatever the call shape.
 *
 * <p>What is kept lives as long as the lease's work: a batch, or one check period of a stream
 * ({@code api.StreamLease} calls {@link #forget}, and closing the lease does). A rotation or a
 * policy change is therefore seen by the next batch or within milliseconds on a stream; a version
 * reaching its cap, at the next item. Confined to the thread, or the lock, the lease's work runs
 * under.
 */
final class EncryptionKeys {
  private final KeyCache keys;
  private final boolean keepLast;
  private String lastName;
  private int lastVersion;
  private UsableKey last;
  private long lastLimit;

  /** The kept version's further encryptions; null while nothing is kept. */
  private EncryptionBlock block;

  /** Whether the last encryption handed out came from {@link #block}. */
  private boolean fromBlock;

  private EncryptionKeys(KeyCache keys, boolean keepLast) {
    this.keys = keys;
    this.keepLast = keepLast;
  }

  /** Asks the cache every time. */
  static EncryptionKeys perEncryption(KeyCache keys) {
    return new EncryptionKeys(keys, false);
  }

  /** Keeps the last answer until {@link #forget}. */
  static EncryptionKeys perLease(KeyCache keys) {
    return new EncryptionKeys(keys, true);
  }

  /**
   * As {@link KeyCache#forEncryption}, from the kept answer when it is for the same name and
   * version and its version has not reached its limit: one encryption is reserved with the answer,
   * to be made or given back ({@link #unused}).
   */
  UsableKey forEncryption(String keyName, int keyVersion) {
    if (last != null && keyVersion == lastVersion && keyName.equals(lastName)) {
      if (block.take()) {
        fromBlock = true;
        return last;
      }
      if (keys.reserveAnother(last, lastLimit)) {
        fromBlock = false;
        return last;
      }
    }
    forget();
    UsableKey key = keys.forEncryption(keyName, keyVersion);
    fromBlock = false;
    if (keepLast) {
      lastName = keyName;
      lastVersion = keyVersion;
      last = key;
      lastLimit = keys.encryptionLimit(key);
      block = keys.encryptionBlock(key, lastLimit);
    }
    return key;
  }

  /** Gives back the reservation of an encryption with {@code key} that made no ciphertext. */
  void unused(UsableKey key) {
    if (fromBlock && key == last) {
      block.giveBack();
    } else {
      keys.unusedEncryption(key);
    }
  }

  /**
   * Counts the kept version's encryptions and gives back what its block did not use; the next
   * encryption asks the cache again.
   */
  void forget() {
    if (block != null) {
      block.settle();
      block = null;
    }
    last = null;
    lastName = null;
  }
}

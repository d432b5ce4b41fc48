package io.cipherd.server.pool;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.CipherSource;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;

/**
 * Ciphers borrowed from the pools once for a whole batch: up to {@value #PER_MODE} per mode, kept
 * between items and returned together on {@link #close()}. A 1,000-item batch then costs a few pool
 * operations per mode instead of two thousand. Used by one thread at a time: the one running the
 * batch, or a stream's items under the stream's lock.
 *
 * <p>Each held cipher remembers the key it was last initialised with, and a borrow for that key
 * gets it back. A rewrap decrypts with one key version and encrypts with another: with one cipher
 * per mode, every item would rebuild the AES key schedule twice; with two, never.
 */
public final class CipherLease implements CipherSource, AutoCloseable {
  /** Ciphers held per mode: enough for a rewrap's source and target keys. */
  static final int PER_MODE = 2;

  private final CipherPools pools;
  private final Cipher[][] held = new Cipher[CipherMode.values().length][PER_MODE];
  private final SecretKey[][] lastKey = new SecretKey[CipherMode.values().length][PER_MODE];

  public CipherLease(CipherPools pools) {
    this.pools = pools;
  }

  /**
   * The held cipher last used with {@code key}; else a new one from the pool while fewer than
   * {@value #PER_MODE} are held; else any held one, whose key schedule the JCE then rebuilds.
   */
  @Override
  public Cipher borrow(CipherMode mode, SecretKey key) {
    Cipher[] ciphers = held[mode.ordinal()];
    SecretKey[] keys = lastKey[mode.ordinal()];
    int any = -1;
    int count = 0;
    for (int i = 0; i < PER_MODE; i++) {
      if (ciphers[i] != null) {
        count++;
        if (keys[i] == key) {
          return take(ciphers, keys, i);
        }
        any = i;
      }
    }
    if (any < 0 || count < PER_MODE) {
      return pools.borrow(mode);
    }
    return take(ciphers, keys, any);
  }

  @Override
  public void release(CipherMode mode, SecretKey key, Cipher cipher) {
    Cipher[] ciphers = held[mode.ordinal()];
    for (int i = 0; i < PER_MODE; i++) {
      if (ciphers[i] == null) {
        ciphers[i] = cipher;
        lastKey[mode.ordinal()][i] = key;
        return;
      }
    }
    pools.release(mode, cipher);
  }

  @Override
  public void invalidate(CipherMode mode, Cipher cipher) {
    pools.invalidate(mode, cipher);
  }

  /**
   * Returns every held cipher to its pool; the lease stays usable and borrows again on its next
   * operation. The slots go back last first: the pools are LIFO, so a next run of the same work (a
   * rewrap's source key, then its target key) gets the same ciphers back in the order it uses them,
   * and each finds its key schedule still in place unless another caller took it meanwhile.
   */
  public void returnAll() {
    for (CipherMode mode : CipherMode.pooled()) {
      Cipher[] ciphers = held[mode.ordinal()];
      for (int i = PER_MODE - 1; i >= 0; i--) {
        if (ciphers[i] != null) {
          Cipher cipher = take(ciphers, lastKey[mode.ordinal()], i);
          pools.release(mode, cipher);
        }
      }
    }
  }

  /** Returns every held cipher to its pool. */
  @Override
  public void close() {
    returnAll();
  }

  /**
   * Takes a held cipher out while it is in use, so an operation nested in another never shares it.
   */
  private static Cipher take(Cipher[] ciphers, SecretKey[] keys, int i) {
    Cipher cipher = ciphers[i];
    ciphers[i] = null;
    keys[i] = null;
    return cipher;
  }
}

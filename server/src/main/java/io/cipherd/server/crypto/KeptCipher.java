package io.cipherd.server.crypto;

import java.security.GeneralSecurityException;
import java.util.concurrent.atomic.AtomicReference;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * One JCE cipher kept initialised with one key between messages, for a key that is used in turn
 * with many others, such as a subject's key among a batch of 256 subjects. A pooled cipher serves
 * every key, so the JCE rebuilds the AES key schedule whenever its key changes (about a sixth of a
 * subject-bound item's CPU); a cipher last initialised with the same key skips it.
 *
 * <p>The first message under the key runs on a pooled cipher, which is then taken out of its pool
 * and kept here, within the server's {@link KeptCiphers} budget; later messages borrow it back, and
 * one that finds it busy (another thread has it) uses the pools. {@link #retire} ends it when its
 * key leaves the cache or is erased: the cipher is re-initialised with a zero key first, which
 * makes the JCE overwrite its copy of the key and its schedule rather than leave them to the
 * garbage collector.
 */
public final class KeptCipher {
  /** The slot's state once retired: nothing is kept again. */
  private static final Object RETIRED = new Object();

  /** The slot's state while its kept cipher serves a message. */
  private static final Object BORROWED = new Object();

  /** The zero key's length: 256 bits, valid for AES and ChaCha20 alike. */
  private static final int ZERO_KEY_LENGTH = 32;

  private record Kept(CipherMode mode, Cipher cipher, String algorithm) {}

  private final KeptCiphers budget;

  /** Null (none kept yet), a {@link Kept}, {@link #BORROWED} or {@link #RETIRED}. */
  private final AtomicReference<Object> slot = new AtomicReference<>();

  KeptCipher(KeptCiphers budget) {
    this.budget = budget;
  }

  /**
   * Where a message under {@code key} gets its cipher: the kept one when it is free, else {@code
   * pool}. Messages under another key (xgcm's per-message keys) go to {@code pool} unchanged.
   */
  public CipherSource over(CipherSource pool, SecretKey key) {
    return new Source(pool, key);
  }

  /** Whether a cipher is kept now (not borrowed), for tests. */
  boolean holds() {
    return slot.get() instanceof Kept;
  }

  /**
   * Drops the kept cipher for good, overwriting its key schedule, and keeps none from now on; a
   * message that has it borrowed drops it when done.
   */
  public void retire() {
    Object previous = slot.getAndSet(RETIRED);
    if (previous instanceof Kept kept) {
      drop(kept.cipher(), kept.algorithm());
    }
  }

  private void drop(Cipher cipher, String algorithm) {
    overwrite(cipher, algorithm);
    budget.giveBack();
  }

  /**
   * Re-initialises {@code cipher} with a zero key of {@code algorithm}, so the JCE overwrites the
   * last key's state (AESCrypt zeroes its copy of the key and its schedule when the key changes).
   */
  private static void overwrite(Cipher cipher, String algorithm) {
    try {
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(new byte[ZERO_KEY_LENGTH], algorithm));
    } catch (GeneralSecurityException | RuntimeException e) {
      // A cipher that refuses a zero key still becomes garbage; nothing else to do.
    }
  }

  /** One message's view: the kept cipher first, the pool otherwise. */
  private final class Source implements CipherSource {
    private final CipherSource pool;
    private final SecretKey key;

    /** The slot's state this message took, put back as it was when the message is done. */
    private Kept borrowedKept;

    Source(CipherSource pool, SecretKey key) {
      this.pool = pool;
      this.key = key;
    }

    @Override
    public Cipher borrow(CipherMode mode, SecretKey messageKey) {
      if (messageKey == key) {
        Object current = slot.get();
        if (current instanceof Kept kept
            && kept.mode() == mode
            && slot.compareAndSet(current, BORROWED)) {
          borrowedKept = kept;
          return kept.cipher();
        }
      }
      return pool.borrow(mode, messageKey);
    }

    @Override
    public void release(CipherMode mode, SecretKey messageKey, Cipher cipher) {
      Kept kept = borrowedKept;
      if (kept != null && cipher == kept.cipher()) {
        borrowedKept = null;
        if (!slot.compareAndSet(BORROWED, kept)) {
          drop(cipher, kept.algorithm()); // retired meanwhile
        }
        return;
      }
      if (messageKey == key && slot.get() == null && budget.tryTake()) {
        // Out of the pool's books (a pool forgets an invalidated object), into this slot.
        pool.invalidate(mode, cipher);
        if (!slot.compareAndSet(null, new Kept(mode, cipher, messageKey.getAlgorithm()))) {
          drop(cipher, messageKey.getAlgorithm());
        }
        return;
      }
      pool.release(mode, messageKey, cipher);
    }

    @Override
    public void invalidate(CipherMode mode, Cipher cipher) {
      Kept kept = borrowedKept;
      if (kept != null && cipher == kept.cipher()) {
        borrowedKept = null;
        slot.compareAndSet(BORROWED, null); // it threw: the next message may keep another
        drop(cipher, kept.algorithm());
        return;
      }
      pool.invalidate(mode, cipher);
    }
  }
}

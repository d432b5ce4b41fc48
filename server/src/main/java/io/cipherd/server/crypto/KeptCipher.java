package io.cipherd.server.crypto;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

/**
 * JCE ciphers kept initialised with one key between messages, for a key that is used in turn with
 * many others, such as a subject's key among a batch of 256 subjects. A pooled cipher serves every
 * key, so the JCE rebuilds the AES key schedule whenever its key changes (about a sixth of a
 * subject-bound item's CPU); a cipher last initialised with the same key skips it.
 *
 * <p>The first message under the key on a thread runs on a pooled cipher, which is then taken out
 * of its pool and kept in that thread's stripe, within the server's {@link KeptCiphers} budget;
 * later messages there borrow it back, and one that finds it busy (another thread of the same
 * stripe has it) uses the pools. A key that several threads use at once (a hot subject, two event
 * loops opening the same batch's subjects) so keeps a cipher per stripe rather than passing one
 * cipher's slot between cores twice per message. The stripes are made when the key first keeps a
 * cipher, so a key that never does costs one empty reference.
 *
 * <p>{@link #retire} ends them all when the key leaves the cache or is erased: each kept cipher is
 * re-initialised with a zero key first, which makes the JCE overwrite its copy of the key and its
 * schedule rather than leave them to the garbage collector. A cipher borrowed at that moment is
 * waited for: a message takes its stripe's cipher with one compare-and-set and gives it back with a
 * plain store, so the message's path has one locked instruction, and the rare retirement pays for
 * that.
 */
public final class KeptCipher {
  /**
   * How many stripes a key's kept ciphers are spread over: the next power of two at least twice the
   * cores (grpc-java's event loops), at most 16. Threads share a stripe by their id.
   */
  static final int STRIPES =
      Math.min(16, ceilingPowerOfTwo(2 * Runtime.getRuntime().availableProcessors()));

  /**
   * Array elements from one stripe's slot to the next: 16 references, 64 bytes or more, so two
   * stripes' slots never share a cache line.
   */
  private static final int SPACING = 16;

  /** A stripe's state once retired: nothing is kept there again. */
  private static final Object RETIRED = new Object();

  /** A stripe's state while its kept cipher serves a message. */
  private static final Object BORROWED = new Object();

  /** How long a retirement waits for a borrowed stripe's cipher to come back: one second. */
  private static final long BORROWED_PATIENCE_NANOS = 1_000_000_000L;

  /** The zero key's length: 256 bits, valid for AES and ChaCha20 alike. */
  private static final int ZERO_KEY_LENGTH = 32;

  private record Kept(CipherMode mode, Cipher cipher, String algorithm) {}

  private final KeptCiphers budget;

  /** Sets {@link #stripes} once (VarHandles rather than atomic wrappers: see {@link #stripes}). */
  private static final VarHandle STRIPES_MADE;

  /** Reads and swaps the slots of {@link #stripes}. */
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

  static {
    try {
      STRIPES_MADE =
          MethodHandles.lookup().findVarHandle(KeptCipher.class, "stripes", Object[].class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * Null until a cipher is first kept; then {@link #STRIPES} slots, {@link #SPACING} apart, each
   * null (none kept yet), a {@link Kept}, {@link #BORROWED} or {@link #RETIRED}. A plain array
   * reached through VarHandles: each message of a subject-bound batch reaches another key's
   * stripes, from memory the other 255 subjects pushed out of the core's cache, and an {@code
   * AtomicReference} to an {@code AtomicReferenceArray} cost two more dependent loads.
   */
  private volatile Object[] stripes;

  private volatile boolean retired;

  KeptCipher(KeptCiphers budget) {
    this.budget = budget;
  }

  private static int ceilingPowerOfTwo(int n) {
    return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
  }

  /** The slot of the stripe of the thread with id {@code threadId}. */
  static int slotOf(long threadId) {
    return (int) (threadId & (STRIPES - 1)) * SPACING;
  }

  /**
   * Where a message under {@code key} gets its cipher: the one its thread's stripe keeps when it is
   * free, else {@code pool}. Messages under another key (xgcm's per-message keys) go to {@code
   * pool} unchanged.
   */
  public CipherSource over(CipherSource pool, SecretKey key) {
    return new Source(pool, key);
  }

  /** How many ciphers are kept now (not borrowed), for tests. */
  int held() {
    Object[] slots = stripes;
    int held = 0;
    for (int i = 0; slots != null && i < slots.length; i += SPACING) {
      if (SLOT.getVolatile(slots, i) instanceof Kept) {
        held++;
      }
    }
    return held;
  }

  /** Whether a cipher is kept now (not borrowed), for tests. */
  boolean holds() {
    return held() > 0;
  }

  /**
   * Drops every kept cipher for good, overwriting its key schedule, and keeps none from now on; a
   * message that has one borrowed drops it when done.
   */
  public void retire() {
    retired = true;
    Object[] slots = stripes;
    if (slots != null) {
      retireAll(slots);
    }
  }

  private void retireAll(Object[] slots) {
    for (int i = 0; i < slots.length; i += SPACING) {
      retireSlot(slots, i);
    }
  }

  /**
   * Retires one stripe, dropping the cipher it keeps. A stripe whose cipher is borrowed is the
   * borrower's to write, with a plain store on its way back ({@link Source#release}): the
   * retirement waits for it (one cipher operation, microseconds), then retires what it put back.
   * After {@link #BORROWED_PATIENCE_NANOS} (a borrower that never came back: an {@code Error} in
   * the JCE) it leaves the stripe, and a borrower that does come back later retires it then.
   */
  private void retireSlot(Object[] slots, int slot) {
    long deadline = 0;
    for (int spins = 0; ; spins++) {
      Object current = SLOT.getVolatile(slots, slot);
      if (current == RETIRED) {
        return;
      }
      if (current == BORROWED) {
        long now = System.nanoTime();
        if (deadline == 0) {
          deadline = now + BORROWED_PATIENCE_NANOS;
        } else if (now - deadline > 0) {
          return;
        }
        if (spins < 64) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
        continue;
      }
      if (SLOT.compareAndSet(slots, slot, current, RETIRED)) {
        if (current instanceof Kept kept) {
          drop(kept.cipher(), kept.algorithm());
        }
        return;
      }
    }
  }

  /**
   * The stripes, made now if none are; a retirement that did not see them made sees them retired
   * here (each side writes, then reads what the other wrote).
   */
  private Object[] stripesMade() {
    Object[] slots = stripes;
    if (slots == null) {
      Object[] made = new Object[STRIPES * SPACING];
      slots = STRIPES_MADE.compareAndSet(this, null, made) ? made : stripes;
      if (retired) {
        retireAll(slots);
      }
    }
    return slots;
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

  /** One message's view: its thread's kept cipher first, the pool otherwise. */
  private final class Source implements CipherSource {
    private final CipherSource pool;
    private final SecretKey key;

    /** The stripe state this message took, put back as it was when the message is done. */
    private Kept borrowedKept;

    /** Where {@link #borrowedKept} came from. */
    private int borrowedSlot;

    Source(CipherSource pool, SecretKey key) {
      this.pool = pool;
      this.key = key;
    }

    @Override
    public Cipher borrow(CipherMode mode, SecretKey messageKey) {
      Object[] slots = stripes;
      if (messageKey == key && slots != null) {
        int slot = slotOf(Thread.currentThread().threadId());
        Object current = SLOT.getVolatile(slots, slot);
        if (current instanceof Kept kept
            && kept.mode() == mode
            && SLOT.compareAndSet(slots, slot, current, BORROWED)) {
          borrowedKept = kept;
          borrowedSlot = slot;
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
        giveBack(kept);
        return;
      }
      if (messageKey == key && !retired) {
        Object[] slots = stripesMade();
        int slot = slotOf(Thread.currentThread().threadId());
        if (SLOT.getVolatile(slots, slot) == null && budget.tryTake()) {
          // Out of the pool's books (a pool forgets an invalidated object), into this stripe.
          pool.invalidate(mode, cipher);
          if (!SLOT.compareAndSet(
              slots, slot, null, new Kept(mode, cipher, messageKey.getAlgorithm()))) {
            drop(cipher, messageKey.getAlgorithm());
          }
          return;
        }
      }
      pool.release(mode, messageKey, cipher);
    }

    /**
     * Ends this message's hold on its stripe, leaving {@code state} there (the kept cipher, or null
     * once it threw). A plain store, not a compare-and-set: only the borrower writes a borrowed
     * stripe (a retirement waits for it), and a locked instruction here, right after the message's
     * writes into this key's cipher state, made the core wait for them all (about a tenth of a
     * subject-bound item's extra cost). A retirement that gave up waiting is finished here.
     */
    private void giveBack(Kept state) {
      Object[] slots = stripes;
      SLOT.setRelease(slots, borrowedSlot, state);
      if (retired) {
        retireSlot(slots, borrowedSlot);
      }
    }

    @Override
    public void invalidate(CipherMode mode, Cipher cipher) {
      Kept kept = borrowedKept;
      if (kept != null && cipher == kept.cipher()) {
        borrowedKept = null;
        // It threw: the next message there may keep another (or, retired, none).
        giveBack(null);
        drop(cipher, kept.algorithm());
        return;
      }
      pool.invalidate(mode, cipher);
    }
  }
}

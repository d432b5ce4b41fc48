package io.cipherd.server.crypto;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The budget every {@link KeptCipher} of one server shares: at most {@link #limit()} ciphers kept
 * out of the pools at a time, each holding a key schedule (a JCE AES/GCM cipher is about 2 KB), so
 * that keeping ciphers for many keys costs bounded memory. A key over the budget is served by the
 * pools as before.
 */
public final class KeptCiphers {
  private final int limit;
  private final AtomicInteger kept = new AtomicInteger();

  /** A budget of {@code limit} ciphers; 0 keeps none. */
  public KeptCiphers(int limit) {
    if (limit < 0) {
      throw new IllegalArgumentException("kept ciphers must be at least 0, got " + limit);
    }
    this.limit = limit;
  }

  /** A {@link KeptCipher} for one key, within this budget. */
  public KeptCipher newSlot() {
    return new KeptCipher(this);
  }

  /** How many ciphers are kept now. */
  public int kept() {
    return kept.get();
  }

  /** At most how many are kept. */
  public int limit() {
    return limit;
  }

  /** Takes one place in the budget; false when it is full. */
  boolean tryTake() {
    while (true) {
      int now = kept.get();
      if (now >= limit) {
        return false;
      }
      if (kept.compareAndSet(now, now + 1)) {
        return true;
      }
    }
  }

  /** Gives back a place a dropped cipher held. */
  void giveBack() {
    kept.decrementAndGet();
  }
}

package io.cipherd.server.usage;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One key version's encryption cap on this replica: the store's total of encryptions as this
 * replica last merged it, plus this replica's encryptions reserved since. An encryption reserves
 * itself here before it runs, with one compare-and-set against the limit, so concurrent calls on
 * one replica never pass it together; and this replica's reservations not yet merged through the
 * store never exceed a block, which bounds what all replicas together can pass it by (see {@link
 * UsageLedger#reserveEncryption}).
 */
final class EncryptionCap {
  /** What {@link #tryReserve} found. */
  enum Reservation {
    RESERVED,
    /** The version has made its limit of encryptions, as far as this replica knows. */
    LIMIT_REACHED,
    /** This replica's unmerged reservations fill a block: merge them before reserving more. */
    BLOCK_FULL
  }

  /** The store's total as last merged, plus this replica's reservations since. */
  private final AtomicLong claimed = new AtomicLong();

  /**
   * The store's total as last merged. Written after {@link #claimed} moves at a merge, read before
   * it at a reservation, so a reservation racing a merge sees at worst more unmerged than there is.
   */
  private volatile long merged;

  /**
   * A cap on a version whose merged total is {@code merged}, and which this replica encrypted with
   * {@code unmerged} times since, while it had no limit.
   */
  EncryptionCap(long merged, long unmerged) {
    this.claimed.set(merged + unmerged);
    this.merged = merged;
  }

  /**
   * Reserves one encryption unless {@code limit} (0: none) is reached or {@code block} unmerged
   * reservations are outstanding.
   */
  Reservation tryReserve(long limit, long block) {
    if (limit <= 0) {
      claimed.incrementAndGet();
      return Reservation.RESERVED;
    }
    long base = merged;
    for (; ; ) {
      long now = claimed.get();
      if (now >= limit) {
        return Reservation.LIMIT_REACHED;
      }
      if (now - base >= block) {
        return Reservation.BLOCK_FULL;
      }
      if (claimed.compareAndSet(now, now + 1)) {
        return Reservation.RESERVED;
      }
    }
  }

  /** Whether one more encryption could be reserved without a store call. */
  boolean hasRoom(long limit, long block) {
    long base = merged;
    long now = claimed.get();
    return limit <= 0 || (now < limit && now - base < block);
  }

  /** Gives back a reservation whose encryption did not happen. */
  void release() {
    claimed.decrementAndGet();
  }

  /**
   * A merge added {@code added} of this replica's reservations to the store, whose total is now
   * {@code total}: what other replicas merged meanwhile joins the claimed count.
   */
  void merged(long total, long added) {
    claimed.addAndGet(total - merged - added);
    merged = total;
  }

  /** The encryptions known here: merged totals and this replica's reservations. */
  long claimed() {
    return claimed.get();
  }
}

package io.cipherd.server.usage;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

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

  /** How often {@link #awaitNoBlockHeld} looks again. */
  private static final long BLOCK_POLL_NANOS = 100_000;

  /** The store's total as last merged, plus this replica's reservations since. */
  private final AtomicLong claimed = new AtomicLong();

  /**
   * Reservations taken in blocks ({@link #tryReserveBlock}) and not settled yet: part of {@link
   * #claimed}, but counted in the ledger only when their holder settles them.
   */
  private final AtomicLong held = new AtomicLong();

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

  /**
   * Reserves {@code size} encryptions at once for one holder, or none (returning false) unless the
   * version is far from {@code limit} (&gt; 0): the room left after them is at least {@code margin}
   * times every block held, and the blocks held stay within half of {@code block}. Near the limit
   * encryptions reserve one at a time, so a call is refused only when what was reserved has run,
   * not because another holder sits on a block it may not use; and the unmerged reservations that a
   * merge cannot move (unsettled blocks) never fill a {@code block}.
   */
  boolean tryReserveBlock(long limit, long block, long size, long margin) {
    long holding = held.addAndGet(size);
    if (holding <= block / 2 && claim(limit, block, size, margin * holding)) {
      return true;
    }
    held.addAndGet(-size);
    return false;
  }

  /**
   * Claims {@code size} encryptions if {@code room} is left under {@code limit} after them and they
   * do not fill the {@code block} of unmerged reservations.
   */
  private boolean claim(long limit, long block, long size, long room) {
    long base = merged;
    for (; ; ) {
      long now = claimed.get();
      if (limit - now - size < room || now - base + size > block) {
        return false;
      }
      if (claimed.compareAndSet(now, now + size)) {
        return true;
      }
    }
  }

  /**
   * Settles a block of {@code size} from {@link #tryReserveBlock} of which {@code unused}
   * encryptions did not happen: they are given back.
   */
  void settleBlock(long size, long unused) {
    claimed.addAndGet(-unused);
    held.addAndGet(-size);
  }

  /**
   * Waits up to {@code maxNanos} until no block is held: true once none is (reserving again is then
   * worth it), false at once if none was held, or if some still are after the wait.
   */
  boolean awaitNoBlockHeld(long maxNanos) {
    if (held.get() == 0) {
      return false;
    }
    long start = System.nanoTime();
    while (held.get() > 0) {
      if (System.nanoTime() - start > maxNanos) {
        return false;
      }
      LockSupport.parkNanos(BLOCK_POLL_NANOS);
    }
    return true;
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

package io.cipherd.server.api;

import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.LeasedEngine;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An item stream's hold on pooled ciphers. Like a batch, the stream's items share one lease on the
 * cipher pools rather than borrowing per operation (a pool round trip costs about as much as
 * encrypting a small item), but only while items keep coming: once a whole {@link #HOLD} passes
 * without an item, the shared scheduler returns the ciphers to the pools, so a stream that waits
 * for its client holds none. Every use, return and the final close hold one lock, so neither ever
 * takes a cipher from an item that still uses it; a close that finds the lock held leaves the
 * closing to its holder, so a client's cancel never waits for an item's store.
 */
final class StreamLease {
  /**
   * How long ciphers stay with a stream after its last item: one to two of these. A stream sending
   * a hundred items a second or more keeps them throughout; one sending fewer pays a pool round
   * trip per item, under a microsecond against ten milliseconds or more between items. Far below
   * the pool's borrow wait (200 ms by default), so a caller waiting for a cipher that a quiet
   * stream holds still gets it.
   */
  static final Duration HOLD = Duration.ofMillis(10);

  private static final long HOLD_NANOS = HOLD.toNanos();

  private final CryptoEngine engine;
  private final LeasedEngine leased;
  private final ItemStreams streams;

  /**
   * Held while an item uses the lease (which may wait for a store), and while its ciphers are
   * returned or it is closed. The shared scheduler only tries it ({@link #returnIfQuiet}): a lease
   * in use is not quiet, and one stream waiting for a stalled store must not hold up the thread
   * that times every stream.
   */
  private final ReentrantLock lock = new ReentrantLock();

  private boolean closed;

  /**
   * Set by {@link #close} when an item held the lock: that item closes the lease once it is done,
   * so a close (a client's cancel, on a transport thread) never waits for a store.
   */
  private volatile boolean closeWanted;

  /**
   * The lease may hold ciphers, and a check that returns them once the stream is quiet is
   * scheduled.
   */
  private boolean holding;

  /** Items that used the lease, and how many of them the last check had seen. */
  private long uses;

  private long seen;

  /** When a check last saw new uses, or the lease was made. */
  private long lastActiveNanos = System.nanoTime();

  StreamLease(CryptoEngine engine, ItemStreams streams) {
    this.engine = engine;
    this.leased = engine.lease();
    this.streams = streams;
  }

  /** The answer to one item, computed with the lease's ciphers; one item at a time. */
  <Q, R> R answer(StreamItemKind<Q, R> items, Q request, ParsedRequest parsed) {
    lock.lock();
    try {
      if (closed || closeWanted) {
        closeLocked();
        // The stream ended meanwhile: the item borrows per operation.
        return items.answer(engine, request, parsed);
      }
      R response = items.answer(leased.engine(), request, parsed);
      uses++;
      if (!holding) {
        // The first item after a quiet spell: a clock read per run of items, not per item.
        seen = uses;
        lastActiveNanos = System.nanoTime();
        holding = streams.schedule(this::returnIfQuiet, HOLD_NANOS) != null;
        if (!holding) {
          // Nothing can time the return any more (the server is stopping): return them now.
          leased.returnCiphers();
        }
      }
      return response;
    } finally {
      unlockAndCloseIfWanted();
    }
  }

  /**
   * Readies the keys of {@code queued}, the run of items answered next ({@link
   * StreamItemKind#prefetch}), on the engine that answers them, which keeps what the run's store
   * round trip settled for them; nothing once the lease is closed (the items then borrow per
   * operation on the shared engine, which keeps nothing for a run).
   */
  <Q, R> void prefetch(StreamItemKind<Q, R> items, List<Q> queued) {
    lock.lock();
    try {
      if (!closed && !closeWanted) {
        items.prefetch(leased.engine(), queued);
      }
    } finally {
      unlockAndCloseIfWanted();
    }
  }

  /**
   * Since when the lease has not been used, to within {@link #HOLD}; now while a use may not have
   * been seen yet.
   */
  long quietSinceNanos() {
    lock.lock();
    try {
      return holding ? System.nanoTime() : lastActiveNanos;
    } finally {
      unlockAndCloseIfWanted();
    }
  }

  /**
   * Returns the ciphers to the pools, once; later items borrow per operation. Without waiting: if
   * an item uses the lease now (perhaps waiting for a store), that item closes it when done.
   */
  void close() {
    closeWanted = true;
    closeIfFree();
  }

  /**
   * Closes the lease if no item holds it. Both sides first say what they want, then try the lock
   * ({@link #close} sets {@link #closeWanted}; an item lets go, then reads it), so one of them
   * always closes it.
   */
  private void closeIfFree() {
    if (lock.tryLock()) {
      try {
        closeLocked();
      } finally {
        lock.unlock();
      }
    }
  }

  private void closeLocked() {
    if (!closed) {
      closed = true;
      leased.close();
    }
  }

  private void unlockAndCloseIfWanted() {
    lock.unlock();
    if (closeWanted) {
      closeIfFree();
    }
  }

  /**
   * On the shared scheduler: returns the ciphers if no item used them since the last look, else
   * looks again; looks again too, without waiting, while an item uses them.
   */
  private void returnIfQuiet() {
    if (!lock.tryLock()) {
      // An item is being answered (it may wait for a store for seconds): busy, not quiet. Should
      // the scheduler refuse (the server stopping), the stream's close returns the ciphers.
      streams.schedule(this::returnIfQuiet, HOLD_NANOS);
      return;
    }
    try {
      if (closed || !holding) {
        return;
      }
      // Each look, busy or quiet: the stream's next encryption sees rotations and caps again, and
      // what its items did reaches the metrics, the usage counts and the audit tally.
      leased.forgetKeys();
      leased.report();
      if (uses != seen) {
        seen = uses;
        lastActiveNanos = System.nanoTime();
        if (streams.schedule(this::returnIfQuiet, HOLD_NANOS) != null) {
          return;
        }
      }
      leased.returnCiphers();
      holding = false;
    } finally {
      unlockAndCloseIfWanted();
    }
  }
}

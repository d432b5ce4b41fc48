package io.cipherd.server.api;

import io.cipherd.server.engine.CryptoEngine;
import io.cipherd.server.engine.LeasedEngine;
import java.time.Duration;

/**
 * An item stream's hold on pooled ciphers. Like a batch, the stream's items share one lease on the
 * cipher pools rather than borrowing per operation (a pool round trip costs about as much as
 * encrypting a small item), but only while items keep coming: once a whole {@link #HOLD} passes
 * without an item, the shared scheduler returns the ciphers to the pools, so a stream that waits
 * for its client holds none. Every use, return and the final close hold one lock, so neither ever
 * takes a cipher from an item that still uses it.
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

  /** Held while an item uses the lease, and while its ciphers are returned or it is closed. */
  private final Object lock = new Object();

  private boolean closed;

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
    synchronized (lock) {
      if (closed) {
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
    }
  }

  /**
   * Since when the lease has not been used, to within {@link #HOLD}; now while a use may not have
   * been seen yet.
   */
  long quietSinceNanos() {
    synchronized (lock) {
      return holding ? System.nanoTime() : lastActiveNanos;
    }
  }

  /** Returns the ciphers to the pools, once; later items borrow per operation. */
  void close() {
    synchronized (lock) {
      if (!closed) {
        closed = true;
        leased.close();
      }
    }
  }

  /**
   * On the shared scheduler: returns the ciphers if no item used them since the last look, else
   * looks again.
   */
  private void returnIfQuiet() {
    synchronized (lock) {
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
    }
  }
}

package io.cipherd.server.subjectkeys;

import java.util.function.Supplier;

/**
 * The time ({@link System#nanoTime} scale) at which the subject caches judge ages and deadlines:
 * now, except within a batch ({@link #batch}), whose items all see the time the batch started.
 *
 * <p>A warm subject-bound item asks the time twice, for the key cache's expiry and for its key's
 * deadline, and on this kind of machine each read costs some 35 ns, a tenth of what a plain gcm
 * item costs the server in all; a batch of 256 reads it once. A batch that waits for a store reads
 * the clock again when the store answers ({@link #waitFor}, through which the stores a batch reads
 * answer), so a slow or stalled store never stretches the batch's time. The price: a batch's items
 * between two waits are judged at the time the first of them began, so another replica's erasure is
 * honoured within the cache TTL plus the longest such stretch of a batch's own work (its CPU time:
 * milliseconds for the largest batch), never later. Rows a batch reads from the store are stamped
 * with the batch's time when the read returned, as a call outside a batch stamps them.
 */
public final class SubjectClock {
  /** The batch time of this thread, 0 (never a reading worth keeping) outside a batch. */
  private static final ThreadLocal<long[]> BATCH = ThreadLocal.withInitial(() -> new long[1]);

  private SubjectClock() {}

  /** The time now, or the batch's start within a batch on this thread. */
  public static long nanoTime() {
    long batch = BATCH.get()[0];
    return batch != 0 ? batch : System.nanoTime();
  }

  /**
   * Runs {@code wait}, a call to a store, and then, answered or failed, within a batch on this
   * thread, moves the batch's time to when it returned ({@link #waited}).
   */
  public static <T> T waitFor(Supplier<T> wait) {
    try {
      return wait.get();
    } finally {
      waited();
    }
  }

  /**
   * Within a batch on this thread, moves its time to now: after a wait (a store's answer), the
   * batch's next items are judged at the time it ended, not at the time the batch started. Nothing
   * outside a batch.
   */
  static void waited() {
    long[] time = BATCH.get();
    if (time[0] != 0) {
      long now = System.nanoTime();
      time[0] = now != 0 ? now : 1;
    }
  }

  /**
   * Runs {@code work}, a batch's items wholly on this thread, with the time read once at its start;
   * within another batch, with that one's.
   */
  public static <T> T batch(Supplier<T> work) {
    long[] time = BATCH.get();
    if (time[0] != 0) {
      return work.get();
    }
    long now = System.nanoTime();
    time[0] = now != 0 ? now : 1;
    try {
      return work.get();
    } finally {
      time[0] = 0;
    }
  }
}

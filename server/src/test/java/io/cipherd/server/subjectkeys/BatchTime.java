package io.cipherd.server.subjectkeys;

import java.util.concurrent.locks.LockSupport;

/** For the tests of the stores a batch reads: whether a call moves the batch's time. */
public final class BatchTime {
  private BatchTime() {}

  /**
   * Whether the time of a batch moved across {@code call}, run in the batch once time has passed
   * since it started; a call that throws is asked as one that answered.
   */
  public static boolean movedBy(Runnable call) {
    long[] reads =
        SubjectClock.batch(
            () -> {
              long before = SubjectClock.nanoTime();
              while (System.nanoTime() - before <= 0) {
                LockSupport.parkNanos(1_000);
              }
              try {
                call.run();
              } catch (RuntimeException failed) {
                // A failed call moves the time as an answered one does.
              }
              return new long[] {before, SubjectClock.nanoTime()};
            });
    return reads[1] - reads[0] > 0;
  }
}

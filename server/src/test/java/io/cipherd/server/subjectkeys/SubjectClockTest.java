package io.cipherd.server.subjectkeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class SubjectClockTest {
  /** Waits until System.nanoTime has moved past {@code since}. */
  private static void passTime(long since) {
    while (System.nanoTime() - since <= 0) {
      LockSupport.parkNanos(1_000);
    }
  }

  @Test
  void outsideABatch_itIsNow() {
    long before = System.nanoTime();
    passTime(before);
    assertThat(SubjectClock.nanoTime() - before).isPositive();
  }

  @Test
  void withinABatch_everyReadIsItsStart_andAfterItTimeMovesAgain() {
    long before = System.nanoTime();
    long[] reads =
        SubjectClock.batch(
            () -> {
              long first = SubjectClock.nanoTime();
              passTime(first);
              return new long[] {first, SubjectClock.nanoTime()};
            });

    assertThat(reads[1]).isEqualTo(reads[0]);
    assertThat(reads[0] - before).isNotNegative();
    passTime(reads[0]);
    assertThat(SubjectClock.nanoTime() - reads[0]).isPositive();
  }

  @Test
  void aNestedBatch_keepsTheOuterOnesTime() {
    long[] reads =
        SubjectClock.batch(
            () -> {
              long outer = SubjectClock.nanoTime();
              passTime(outer);
              long inner = SubjectClock.batch(SubjectClock::nanoTime);
              return new long[] {outer, inner, SubjectClock.nanoTime()};
            });

    assertThat(reads[1]).isEqualTo(reads[0]);
    assertThat(reads[2]).isEqualTo(reads[0]);
  }

  @Test
  void aBatchThatThrows_leavesTheThreadOnTheLiveClock() {
    long[] start = new long[1];
    assertThatThrownBy(
            () ->
                SubjectClock.batch(
                    () -> {
                      start[0] = SubjectClock.nanoTime();
                      throw new IllegalStateException("item failed");
                    }))
        .hasMessage("item failed");

    passTime(start[0]);
    assertThat(SubjectClock.nanoTime() - start[0]).isPositive();
  }

  @Test
  void anotherThread_isNotInThisThreadsBatch() throws Exception {
    long[] reads =
        SubjectClock.batch(
            () -> {
              long batch = SubjectClock.nanoTime();
              passTime(batch);
              long other = CompletableFuture.supplyAsync(SubjectClock::nanoTime).join();
              return new long[] {batch, other};
            });

    assertThat(reads[1] - reads[0]).isPositive();
  }

  @Test
  void waited_movesABatchsTimeToNow_whichItsLaterReadsThenSee() {
    long[] reads =
        SubjectClock.batch(
            () -> {
              long start = SubjectClock.nanoTime();
              passTime(start);
              SubjectClock.waited();
              long afterWait = SubjectClock.nanoTime();
              passTime(afterWait);
              return new long[] {start, afterWait, SubjectClock.nanoTime()};
            });

    assertThat(reads[1] - reads[0]).isPositive();
    assertThat(reads[2]).isEqualTo(reads[1]);
  }

  @Test
  void waited_outsideABatch_leavesTheThreadOnTheLiveClock() {
    SubjectClock.waited();
    long before = SubjectClock.nanoTime();
    passTime(before);
    assertThat(SubjectClock.nanoTime() - before).isPositive();
  }
}

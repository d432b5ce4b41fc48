package io.cipherd.server.subjectkeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.subjects.MemorySubjectStore;
import io.cipherd.server.subjects.SubjectStore;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A subject-store call made within a batch moves the batch's time to when it returned, whether it
 * answered or failed; outside a batch it changes nothing.
 */
class BatchClockSubjectStoreTest {
  private final SubjectStore store = new BatchClockSubjectStore(new MemorySubjectStore());

  /** Whether the batch's time moved across {@code call}, time having passed before it. */
  private static boolean moves(Runnable call) {
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

  @Test
  void calls_answeredOrFailed_moveTheBatchsTime() {
    assertThat(moves(() -> store.findByRef(List.of()))).isTrue();
    assertThat(moves(() -> store.find("users", List.of()))).isTrue();
    assertThat(moves(() -> store.countByWrapVersion("users"))).isTrue();
    assertThatThrownBy(() -> store.findByRef(null)).isInstanceOf(NullPointerException.class);
    assertThat(moves(() -> store.findByRef(null))).isTrue();
    // Without a store call, it stays.
    assertThat(moves(() -> {})).isFalse();
  }

  @Test
  void outsideABatch_callsGoStraightThrough() {
    assertThat(store.findByRef(List.of())).isEmpty();
    assertThat(store.countByWrapVersion("users")).isEmpty();
  }
}

package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.subjectkeys.SubjectClock;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * A key-store call made within a batch moves the batch's time to when it returned, whether it
 * answered or failed; outside a batch it changes nothing.
 */
class BatchClockKeyStoreTest {
  private final KeyStore store = new BatchClockKeyStore(new InMemoryKeyStore());

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
  void reads_answeredOrFailed_moveTheBatchsTime() {
    assertThat(moves(() -> store.readKey("orders"))).isTrue();
    assertThat(moves(store::listKeyNames)).isTrue();
    assertThatThrownBy(() -> store.readMaterial("orders", null))
        .isInstanceOf(KeyNotFoundException.class);
    assertThat(moves(() -> store.readMaterial("orders", null))).isTrue();
    // Without a store call, it stays.
    assertThat(moves(() -> {})).isFalse();
  }

  @Test
  void outsideABatch_callsGoStraightThrough() {
    assertThat(store.readKey("orders")).isEmpty();
    assertThat(store.listKeyNames()).isEmpty();
  }
}

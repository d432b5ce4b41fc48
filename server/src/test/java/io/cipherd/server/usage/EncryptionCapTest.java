package io.cipherd.server.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.usage.EncryptionCap.Reservation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One version's cap on one replica: reservations against a limit and a block. */
class EncryptionCapTest {
  @Test
  void concurrentReservations_neverPassTheLimit() throws Exception {
    EncryptionCap cap = new EncryptionCap(0, 0);
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Callable<Integer>> tasks = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        tasks.add(
            () -> {
              int reserved = 0;
              for (int i = 0; i < 10_000; i++) {
                reserved += cap.tryReserve(1_000, Long.MAX_VALUE) == Reservation.RESERVED ? 1 : 0;
              }
              return reserved;
            });
      }
      int total = 0;
      for (Future<Integer> done : threads.invokeAll(tasks)) {
        total += done.get();
      }
      assertThat(total).isEqualTo(1_000);
      assertThat(cap.claimed()).isEqualTo(1_000);
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aFullBlock_asksForAMerge_andTheMergeMakesRoom() {
    EncryptionCap cap = new EncryptionCap(10, 0);
    assertThat(cap.tryReserve(100, 2)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.tryReserve(100, 2)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.tryReserve(100, 2)).isEqualTo(Reservation.BLOCK_FULL);
    assertThat(cap.hasRoom(100, 2)).isFalse();

    cap.merged(/* total= */ 20, /* added= */ 2); // another replica merged 8

    assertThat(cap.claimed()).isEqualTo(20);
    assertThat(cap.tryReserve(100, 2)).isEqualTo(Reservation.RESERVED);
  }

  @Test
  void theLimit_isCheckedBeforeTheBlock_andAReleaseMakesRoom() {
    EncryptionCap cap = new EncryptionCap(2, 1);
    assertThat(cap.tryReserve(3, 1)).isEqualTo(Reservation.LIMIT_REACHED);

    cap.release();

    assertThat(cap.tryReserve(3, 5)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.claimed()).isEqualTo(3);
  }

  @Test
  void noLimit_alwaysReserves_andStillCounts() {
    EncryptionCap cap = new EncryptionCap(0, 0);
    assertThat(cap.tryReserve(0, 1)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.tryReserve(0, 1)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.claimed()).isEqualTo(2);
  }

  @Test
  void blocks_areReservedOnlyFarFromTheLimit_andSettlingGivesBackTheRest() {
    EncryptionCap cap = new EncryptionCap(0, 0);
    // 10,000 - 128 >= 64 x 128 held: a second block fits; a third would leave less than 64 x 192.
    assertThat(cap.tryReserveBlock(10_000, 1_000, 64, 64)).isTrue();
    assertThat(cap.tryReserveBlock(10_000, 1_000, 64, 64)).isTrue();
    assertThat(cap.tryReserveBlock(10_000, 1_000, 64, 64)).isFalse();
    assertThat(cap.claimed()).isEqualTo(128);

    cap.settleBlock(64, /* unused= */ 60);
    assertThat(cap.claimed()).isEqualTo(68);
    cap.settleBlock(64, /* unused= */ 64);
    assertThat(cap.claimed()).isEqualTo(4);

    // Nothing held: one at a time up to exactly the limit.
    int reserved = 0;
    while (cap.tryReserve(10_000, Long.MAX_VALUE) == Reservation.RESERVED) {
      reserved++;
    }
    assertThat(reserved).isEqualTo(10_000 - 4);
    assertThat(cap.tryReserveBlock(10_000, 1_000, 64, 64)).isFalse();
    assertThat(cap.claimed()).isEqualTo(10_000);
  }

  @Test
  void heldBlocks_stayWithinHalfTheMergeBlock_soAMergeAlwaysMakesRoom() {
    EncryptionCap cap = new EncryptionCap(0, 0);
    assertThat(cap.tryReserveBlock(1L << 40, 100, 64, 64)).isFalse();
    assertThat(cap.tryReserveBlock(1L << 40, 128, 64, 64)).isTrue();
    assertThat(cap.tryReserveBlock(1L << 40, 128, 64, 64)).isFalse();
    // Per-item reservations fill the block; a merge (which cannot move the held block) makes room.
    for (int i = 0; i < 64; i++) {
      assertThat(cap.tryReserve(1L << 40, 128)).isEqualTo(Reservation.RESERVED);
    }
    assertThat(cap.tryReserve(1L << 40, 128)).isEqualTo(Reservation.BLOCK_FULL);
    cap.merged(/* total= */ 64, /* added= */ 64);
    assertThat(cap.tryReserve(1L << 40, 128)).isEqualTo(Reservation.RESERVED);
    assertThat(cap.claimed()).isEqualTo(64 + 64 + 1);
  }
}

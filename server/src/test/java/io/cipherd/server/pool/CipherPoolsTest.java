package io.cipherd.server.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cipherd.server.crypto.CipherMode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CipherPoolsTest {
  /** Far above the configured waits below: only a borrow that never gives up would reach it. */
  private static final Duration HANG = Duration.ofSeconds(10);

  private static CipherPools pools(int maxTotal, int maxIdle, Duration maxWait) {
    return new CipherPools(new CipherPoolConfig(maxTotal, maxIdle, maxWait));
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"SIV"},
      mode = EnumSource.Mode.EXCLUDE)
  void borrow_givesACipherOfTheModesTransformation(CipherMode mode) {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher cipher = pools.borrow(mode);

      assertThat(cipher.getAlgorithm()).isEqualTo(mode.transformation());
      pools.release(mode, cipher);
    }
  }

  @Test
  void siv_hasNoPool() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      assertThat(pools.pool(CipherMode.SIV)).isNull();
    }
  }

  @Test
  void borrow_afterRelease_reusesTheSameCipher() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher first = pools.borrow(CipherMode.GCM);
      pools.release(CipherMode.GCM, first);

      Cipher second = pools.borrow(CipherMode.GCM);

      assertThat(second).isSameAs(first);
      assertThat(pools.pool(CipherMode.GCM).getCreatedCount()).isEqualTo(1);
      pools.release(CipherMode.GCM, second);
    }
  }

  @Test
  void borrow_whileAnotherIsOut_givesADifferentCipher() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher first = pools.borrow(CipherMode.CBC);
      Cipher second = pools.borrow(CipherMode.CBC);

      assertThat(second).isNotSameAs(first);
      assertThat(pools.pool(CipherMode.CBC).getNumActive()).isEqualTo(2);
      pools.release(CipherMode.CBC, first);
      pools.release(CipherMode.CBC, second);
      assertThat(pools.pool(CipherMode.CBC).getNumActive()).isZero();
    }
  }

  @Test
  void invalidate_dropsTheCipherSoItIsNeverReused() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher broken = pools.borrow(CipherMode.CHACHA);

      pools.invalidate(CipherMode.CHACHA, broken);
      Cipher next = pools.borrow(CipherMode.CHACHA);

      assertThat(next).isNotSameAs(broken);
      assertThat(pools.pool(CipherMode.CHACHA).getDestroyedCount()).isEqualTo(1);
      assertThat(pools.pool(CipherMode.CHACHA).getNumActive()).isEqualTo(1);
      pools.release(CipherMode.CHACHA, next);
    }
  }

  @Test
  void clear_dropsIdleCiphersOfEveryMode_andABorrowedOneIsPooledAgainOnRelease() throws Exception {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher idle = pools.borrow(CipherMode.GCM);
      Cipher borrowed = pools.borrow(CipherMode.GCM);
      pools.release(CipherMode.GCM, idle);
      pools.release(CipherMode.CBC, pools.borrow(CipherMode.CBC));

      pools.clear();

      assertThat(pools.pool(CipherMode.GCM).getNumIdle()).isZero();
      assertThat(pools.pool(CipherMode.CBC).getNumIdle()).isZero();
      assertThat(pools.borrow(CipherMode.GCM)).isNotSameAs(idle);
      pools.release(CipherMode.GCM, borrowed);
      assertThat(pools.pool(CipherMode.GCM).getNumIdle()).isEqualTo(1);
    }
  }

  @Test
  void invalidate_calledTwice_doesNotThrow() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher cipher = pools.borrow(CipherMode.CTR);
      pools.invalidate(CipherMode.CTR, cipher);

      pools.invalidate(CipherMode.CTR, cipher);

      assertThat(pools.pool(CipherMode.CTR).getNumActive()).isZero();
    }
  }

  @Test
  void release_beyondMaxIdle_keepsOnlyMaxIdleCiphers() {
    try (CipherPools pools = pools(4, 1, Duration.ofMillis(50))) {
      Cipher a = pools.borrow(CipherMode.OFB);
      Cipher b = pools.borrow(CipherMode.OFB);
      Cipher c = pools.borrow(CipherMode.OFB);

      pools.release(CipherMode.OFB, a);
      pools.release(CipherMode.OFB, b);
      pools.release(CipherMode.OFB, c);

      assertThat(pools.pool(CipherMode.OFB).getNumIdle()).isEqualTo(1);
      assertThat(pools.pool(CipherMode.OFB).getDestroyedCount()).isEqualTo(2);
    }
  }

  @Test
  void borrow_exhaustedPool_throwsCipherPoolExhaustedAfterBoundedWait() {
    try (CipherPools pools = pools(1, 1, Duration.ofMillis(50))) {
      Cipher held = pools.borrow(CipherMode.GCM);

      assertTimeoutPreemptively(
          HANG,
          () ->
              assertThatThrownBy(() -> pools.borrow(CipherMode.GCM))
                  .isInstanceOf(CipherPoolExhaustedException.class)
                  .hasMessageContaining("gcm"));

      pools.release(CipherMode.GCM, held);
      Cipher again = pools.borrow(CipherMode.GCM);
      assertThat(again).isSameAs(held);
      pools.release(CipherMode.GCM, again);
    }
  }

  @Test
  void borrow_exhaustedMode_leavesOtherModesAvailable() {
    try (CipherPools pools = pools(1, 1, Duration.ofMillis(50))) {
      Cipher held = pools.borrow(CipherMode.GCM);

      Cipher other = assertTimeoutPreemptively(HANG, () -> pools.borrow(CipherMode.CHACHA));

      assertThat(other.getAlgorithm()).isEqualTo(CipherMode.CHACHA.transformation());
      pools.release(CipherMode.CHACHA, other);
      pools.release(CipherMode.GCM, held);
    }
  }

  @Test
  void borrow_waitingCaller_getsTheCipherOnceReleased() throws Exception {
    try (CipherPools pools = pools(1, 1, HANG)) {
      Cipher held = pools.borrow(CipherMode.CFB);
      CompletableFuture<Cipher> waiter =
          CompletableFuture.supplyAsync(() -> pools.borrow(CipherMode.CFB));

      // Release only once the other thread is really blocked in the pool, not before it asks.
      assertTimeoutPreemptively(
          HANG,
          () -> {
            while (pools.pool(CipherMode.CFB).getNumWaiters() == 0) {
              Thread.sleep(5);
            }
          });
      assertThat(waiter).isNotDone();
      pools.release(CipherMode.CFB, held);

      assertThat(waiter.get(HANG.toMillis(), TimeUnit.MILLISECONDS)).isSameAs(held);
      pools.release(CipherMode.CFB, held);
    }
  }

  @Test
  void config_outOfRangeBounds_areRefused() {
    assertThatThrownBy(() -> new CipherPoolConfig(0, 0, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CipherPoolConfig(2, 3, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CipherPoolConfig(2, -1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CipherPoolConfig(2, 2, Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

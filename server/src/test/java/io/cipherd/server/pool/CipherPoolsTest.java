package io.cipherd.server.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.cipherd.server.crypto.Mode;
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
      value = Mode.class,
      names = {"HMAC", "LEGACY"},
      mode = EnumSource.Mode.EXCLUDE)
  void borrow_givesACipherOfTheModesTransformation(Mode mode) {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher cipher = pools.borrow(mode);

      assertThat(cipher.getAlgorithm()).isEqualTo(mode.transformation());
      pools.release(mode, cipher);
    }
  }

  @Test
  void borrow_afterRelease_reusesTheSameCipher() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher first = pools.borrow(Mode.GCM);
      pools.release(Mode.GCM, first);

      Cipher second = pools.borrow(Mode.GCM);

      assertThat(second).isSameAs(first);
      assertThat(pools.pool(Mode.GCM).getCreatedCount()).isEqualTo(1);
      pools.release(Mode.GCM, second);
    }
  }

  @Test
  void borrow_whileAnotherIsOut_givesADifferentCipher() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher first = pools.borrow(Mode.CBC);
      Cipher second = pools.borrow(Mode.CBC);

      assertThat(second).isNotSameAs(first);
      assertThat(pools.pool(Mode.CBC).getNumActive()).isEqualTo(2);
      pools.release(Mode.CBC, first);
      pools.release(Mode.CBC, second);
      assertThat(pools.pool(Mode.CBC).getNumActive()).isZero();
    }
  }

  @Test
  void invalidate_dropsTheCipherSoItIsNeverReused() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher broken = pools.borrow(Mode.CHACHA);

      pools.invalidate(Mode.CHACHA, broken);
      Cipher next = pools.borrow(Mode.CHACHA);

      assertThat(next).isNotSameAs(broken);
      assertThat(pools.pool(Mode.CHACHA).getDestroyedCount()).isEqualTo(1);
      assertThat(pools.pool(Mode.CHACHA).getNumActive()).isEqualTo(1);
      pools.release(Mode.CHACHA, next);
    }
  }

  @Test
  void clear_dropsIdleCiphersOfEveryMode_andABorrowedOneIsPooledAgainOnRelease() throws Exception {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher idle = pools.borrow(Mode.GCM);
      Cipher borrowed = pools.borrow(Mode.GCM);
      pools.release(Mode.GCM, idle);
      pools.release(Mode.CBC, pools.borrow(Mode.CBC));

      pools.clear();

      assertThat(pools.pool(Mode.GCM).getNumIdle()).isZero();
      assertThat(pools.pool(Mode.CBC).getNumIdle()).isZero();
      assertThat(pools.borrow(Mode.GCM)).isNotSameAs(idle);
      pools.release(Mode.GCM, borrowed);
      assertThat(pools.pool(Mode.GCM).getNumIdle()).isEqualTo(1);
    }
  }

  @Test
  void invalidate_calledTwice_doesNotThrow() {
    try (CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT)) {
      Cipher cipher = pools.borrow(Mode.CTR);
      pools.invalidate(Mode.CTR, cipher);

      pools.invalidate(Mode.CTR, cipher);

      assertThat(pools.pool(Mode.CTR).getNumActive()).isZero();
    }
  }

  @Test
  void release_beyondMaxIdle_keepsOnlyMaxIdleCiphers() {
    try (CipherPools pools = pools(4, 1, Duration.ofMillis(50))) {
      Cipher a = pools.borrow(Mode.OFB);
      Cipher b = pools.borrow(Mode.OFB);
      Cipher c = pools.borrow(Mode.OFB);

      pools.release(Mode.OFB, a);
      pools.release(Mode.OFB, b);
      pools.release(Mode.OFB, c);

      assertThat(pools.pool(Mode.OFB).getNumIdle()).isEqualTo(1);
      assertThat(pools.pool(Mode.OFB).getDestroyedCount()).isEqualTo(2);
    }
  }

  @Test
  void borrow_exhaustedPool_throwsCipherPoolExhaustedAfterBoundedWait() {
    try (CipherPools pools = pools(1, 1, Duration.ofMillis(50))) {
      Cipher held = pools.borrow(Mode.GCM);

      assertTimeoutPreemptively(
          HANG,
          () ->
              assertThatThrownBy(() -> pools.borrow(Mode.GCM))
                  .isInstanceOf(CipherPoolExhaustedException.class)
                  .hasMessageContaining("gcm"));

      pools.release(Mode.GCM, held);
      Cipher again = pools.borrow(Mode.GCM);
      assertThat(again).isSameAs(held);
      pools.release(Mode.GCM, again);
    }
  }

  @Test
  void borrow_exhaustedMode_leavesOtherModesAvailable() {
    try (CipherPools pools = pools(1, 1, Duration.ofMillis(50))) {
      Cipher held = pools.borrow(Mode.GCM);

      Cipher other = assertTimeoutPreemptively(HANG, () -> pools.borrow(Mode.CHACHA));

      assertThat(other.getAlgorithm()).isEqualTo(Mode.CHACHA.transformation());
      pools.release(Mode.CHACHA, other);
      pools.release(Mode.GCM, held);
    }
  }

  @Test
  void borrow_waitingCaller_getsTheCipherOnceReleased() throws Exception {
    try (CipherPools pools = pools(1, 1, HANG)) {
      Cipher held = pools.borrow(Mode.CFB);
      CompletableFuture<Cipher> waiter =
          CompletableFuture.supplyAsync(() -> pools.borrow(Mode.CFB));

      // Release only once the other thread is really blocked in the pool, not before it asks.
      assertTimeoutPreemptively(
          HANG,
          () -> {
            while (pools.pool(Mode.CFB).getNumWaiters() == 0) {
              Thread.sleep(5);
            }
          });
      assertThat(waiter).isNotDone();
      pools.release(Mode.CFB, held);

      assertThat(waiter.get(HANG.toMillis(), TimeUnit.MILLISECONDS)).isSameAs(held);
      pools.release(Mode.CFB, held);
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

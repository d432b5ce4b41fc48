package io.cipherd.server.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.NonceSource;
import java.time.Duration;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CipherLeaseTest {
  private final CipherPools pools =
      new CipherPools(new CipherPoolConfig(4, 4, Duration.ofMillis(50)));
  private final SecretKey key = new SecretKeySpec(NonceSource.bytes(32), "AES");
  private final SecretKey otherKey = new SecretKeySpec(NonceSource.bytes(32), "AES");

  @AfterEach
  void close() {
    pools.close();
  }

  @Test
  void borrowAfterRelease_reusesTheSameCipher_withoutTouchingThePool() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher first = lease.borrow(CipherMode.GCM, key);
      lease.release(CipherMode.GCM, key, first);
      long borrowsBefore = pools.pool(CipherMode.GCM).getBorrowedCount();

      Cipher second = lease.borrow(CipherMode.GCM, key);

      assertThat(second).isSameAs(first);
      assertThat(pools.pool(CipherMode.GCM).getBorrowedCount()).isEqualTo(borrowsBefore);
      lease.release(CipherMode.GCM, key, second);
    }
  }

  @Test
  void nestedBorrow_getsAnotherCipher_andTheLeaseKeepsTwoPerMode() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher outer = lease.borrow(CipherMode.CHACHA, key);
      Cipher middle = lease.borrow(CipherMode.CHACHA, key);
      Cipher inner = lease.borrow(CipherMode.CHACHA, key);
      assertThat(inner).isNotSameAs(outer).isNotSameAs(middle);
      assertThat(middle).isNotSameAs(outer);
      lease.release(CipherMode.CHACHA, key, inner);
      lease.release(CipherMode.CHACHA, key, middle);
      lease.release(CipherMode.CHACHA, key, outer);
      assertThat(pools.pool(CipherMode.CHACHA).getNumActive())
          .as("two kept by the lease, one back in the pool")
          .isEqualTo(2);
    }
    assertThat(pools.pool(CipherMode.CHACHA).getNumActive()).isZero();
  }

  /**
   * A rewrap alternates a source and a target key: each gets its own cipher back, item after item.
   */
  @Test
  void alternatingKeys_eachGetTheCipherLastUsedWithThem() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher forKey = lease.borrow(CipherMode.GCM, key);
      lease.release(CipherMode.GCM, key, forKey);
      Cipher forOther = lease.borrow(CipherMode.GCM, otherKey);
      assertThat(forOther)
          .as("a second cipher rather than re-keying the first")
          .isNotSameAs(forKey);
      lease.release(CipherMode.GCM, otherKey, forOther);
      long borrowsBefore = pools.pool(CipherMode.GCM).getBorrowedCount();

      for (int i = 0; i < 5; i++) {
        Cipher a = lease.borrow(CipherMode.GCM, key);
        assertThat(a).isSameAs(forKey);
        lease.release(CipherMode.GCM, key, a);
        Cipher b = lease.borrow(CipherMode.GCM, otherKey);
        assertThat(b).isSameAs(forOther);
        lease.release(CipherMode.GCM, otherKey, b);
      }
      assertThat(pools.pool(CipherMode.GCM).getBorrowedCount()).isEqualTo(borrowsBefore);

      SecretKey third = new SecretKeySpec(NonceSource.bytes(32), "AES");
      Cipher reused = lease.borrow(CipherMode.GCM, third);
      assertThat(reused)
          .as("with both held, a third key re-keys one of them")
          .isIn(forKey, forOther);
      lease.release(CipherMode.GCM, third, reused);
    }
  }

  @Test
  void close_returnsEveryHeldCipher() {
    CipherLease lease = new CipherLease(pools);
    for (CipherMode mode : CipherMode.pooled()) {
      lease.release(mode, key, lease.borrow(mode, key));
    }
    lease.close();
    for (CipherMode mode : CipherMode.pooled()) {
      assertThat(pools.pool(mode).getNumActive()).as(mode.headerName()).isZero();
      assertThat(pools.pool(mode).getNumIdle()).as(mode.headerName()).isEqualTo(1);
    }
  }

  @Test
  void invalidate_dropsTheCipher_fromLeaseAndPool() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher broken = lease.borrow(CipherMode.CBC, key);
      lease.invalidate(CipherMode.CBC, broken);
      assertThat(lease.borrow(CipherMode.CBC, key)).isNotSameAs(broken);
    }
    assertThat(pools.pool(CipherMode.CBC).getDestroyedCount()).isEqualTo(1);
  }

  @Test
  void failedDecryptionInALease_leavesNoCipherBorrowed() {
    ArrayPayloadCipher cipher = new ArrayPayloadCipher(pools);
    byte[] payload = cipher.encrypt(CipherMode.GCM, key, new byte[0], null, new byte[] {1, 2, 3});
    payload[payload.length - 1] ^= 1;
    try (CipherLease lease = new CipherLease(pools)) {
      ArrayPayloadCipher leased = new ArrayPayloadCipher(lease);
      for (int i = 0; i < 10; i++) {
        assertThatThrownBy(() -> leased.decrypt(CipherMode.GCM, key, new byte[0], null, payload))
            .isInstanceOf(DecryptionFailedException.class);
      }
      assertThat(
              leased.decrypt(
                  CipherMode.GCM,
                  key,
                  new byte[0],
                  null,
                  cipher.encrypt(CipherMode.GCM, key, new byte[0], null, new byte[] {9})))
          .containsExactly(9);
    }
    assertThat(pools.pool(CipherMode.GCM).getNumActive()).isZero();
  }
}

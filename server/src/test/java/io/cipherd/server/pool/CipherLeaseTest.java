package io.cipherd.server.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.ArrayPayloadCipher;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.Mode;
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
      Cipher first = lease.borrow(Mode.GCM, key);
      lease.release(Mode.GCM, key, first);
      long borrowsBefore = pools.pool(Mode.GCM).getBorrowedCount();

      Cipher second = lease.borrow(Mode.GCM, key);

      assertThat(second).isSameAs(first);
      assertThat(pools.pool(Mode.GCM).getBorrowedCount()).isEqualTo(borrowsBefore);
      lease.release(Mode.GCM, key, second);
    }
  }

  @Test
  void nestedBorrow_getsAnotherCipher_andTheLeaseKeepsTwoPerMode() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher outer = lease.borrow(Mode.CHACHA, key);
      Cipher middle = lease.borrow(Mode.CHACHA, key);
      Cipher inner = lease.borrow(Mode.CHACHA, key);
      assertThat(inner).isNotSameAs(outer).isNotSameAs(middle);
      assertThat(middle).isNotSameAs(outer);
      lease.release(Mode.CHACHA, key, inner);
      lease.release(Mode.CHACHA, key, middle);
      lease.release(Mode.CHACHA, key, outer);
      assertThat(pools.pool(Mode.CHACHA).getNumActive())
          .as("two kept by the lease, one back in the pool")
          .isEqualTo(2);
    }
    assertThat(pools.pool(Mode.CHACHA).getNumActive()).isZero();
  }

  /**
   * A rewrap alternates a source and a target key: each gets its own cipher back, item after item.
   */
  @Test
  void alternatingKeys_eachGetTheCipherLastUsedWithThem() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher forKey = lease.borrow(Mode.GCM, key);
      lease.release(Mode.GCM, key, forKey);
      Cipher forOther = lease.borrow(Mode.GCM, otherKey);
      assertThat(forOther)
          .as("a second cipher rather than re-keying the first")
          .isNotSameAs(forKey);
      lease.release(Mode.GCM, otherKey, forOther);
      long borrowsBefore = pools.pool(Mode.GCM).getBorrowedCount();

      for (int i = 0; i < 5; i++) {
        Cipher a = lease.borrow(Mode.GCM, key);
        assertThat(a).isSameAs(forKey);
        lease.release(Mode.GCM, key, a);
        Cipher b = lease.borrow(Mode.GCM, otherKey);
        assertThat(b).isSameAs(forOther);
        lease.release(Mode.GCM, otherKey, b);
      }
      assertThat(pools.pool(Mode.GCM).getBorrowedCount()).isEqualTo(borrowsBefore);

      SecretKey third = new SecretKeySpec(NonceSource.bytes(32), "AES");
      Cipher reused = lease.borrow(Mode.GCM, third);
      assertThat(reused)
          .as("with both held, a third key re-keys one of them")
          .isIn(forKey, forOther);
      lease.release(Mode.GCM, third, reused);
    }
  }

  @Test
  void close_returnsEveryHeldCipher() {
    CipherLease lease = new CipherLease(pools);
    for (Mode mode : Mode.ciphers()) {
      lease.release(mode, key, lease.borrow(mode, key));
    }
    lease.close();
    for (Mode mode : Mode.ciphers()) {
      assertThat(pools.pool(mode).getNumActive()).as(mode.headerName()).isZero();
      assertThat(pools.pool(mode).getNumIdle()).as(mode.headerName()).isEqualTo(1);
    }
  }

  @Test
  void invalidate_dropsTheCipher_fromLeaseAndPool() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher broken = lease.borrow(Mode.CBC, key);
      lease.invalidate(Mode.CBC, broken);
      assertThat(lease.borrow(Mode.CBC, key)).isNotSameAs(broken);
    }
    assertThat(pools.pool(Mode.CBC).getDestroyedCount()).isEqualTo(1);
  }

  @Test
  void failedDecryptionInALease_leavesNoCipherBorrowed() {
    ArrayPayloadCipher cipher = new ArrayPayloadCipher(pools);
    byte[] payload = cipher.encrypt(Mode.GCM, key, new byte[0], null, new byte[] {1, 2, 3});
    payload[payload.length - 1] ^= 1;
    try (CipherLease lease = new CipherLease(pools)) {
      ArrayPayloadCipher leased = new ArrayPayloadCipher(lease);
      for (int i = 0; i < 10; i++) {
        assertThatThrownBy(() -> leased.decrypt(Mode.GCM, key, new byte[0], null, payload))
            .isInstanceOf(DecryptionFailedException.class);
      }
      assertThat(
              leased.decrypt(
                  Mode.GCM,
                  key,
                  new byte[0],
                  null,
                  cipher.encrypt(Mode.GCM, key, new byte[0], null, new byte[] {9})))
          .containsExactly(9);
    }
    assertThat(pools.pool(Mode.GCM).getNumActive()).isZero();
  }
}

package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CipherLeaseTest {
  private final CipherPools pools = new CipherPools(new CipherPoolConfig(4, 4, Duration.ofMillis(50)));

  @AfterEach
  void close() {
    pools.close();
  }

  @Test
  void borrowAfterRelease_reusesTheSameCipher_withoutTouchingThePool() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher first = lease.borrow(Mode.GCM);
      lease.release(Mode.GCM, first);
      long borrowsBefore = pools.pool(Mode.GCM).getBorrowedCount();

      Cipher second = lease.borrow(Mode.GCM);

      assertThat(second).isSameAs(first);
      assertThat(pools.pool(Mode.GCM).getBorrowedCount()).isEqualTo(borrowsBefore);
      lease.release(Mode.GCM, second);
    }
  }

  @Test
  void nestedBorrow_getsAnotherCipher() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher outer = lease.borrow(Mode.CHACHA);
      Cipher inner = lease.borrow(Mode.CHACHA);
      assertThat(inner).isNotSameAs(outer);
      lease.release(Mode.CHACHA, inner);
      lease.release(Mode.CHACHA, outer);
      assertThat(pools.pool(Mode.CHACHA).getNumActive()).as("one kept by the lease, one back in the pool").isEqualTo(1);
    }
  }

  @Test
  void close_returnsEveryHeldCipher() {
    CipherLease lease = new CipherLease(pools);
    for (Mode mode : Mode.values()) {
      lease.release(mode, lease.borrow(mode));
    }
    lease.close();
    for (Mode mode : Mode.values()) {
      assertThat(pools.pool(mode).getNumActive()).as(mode.headerName()).isZero();
      assertThat(pools.pool(mode).getNumIdle()).as(mode.headerName()).isEqualTo(1);
    }
  }

  @Test
  void invalidate_dropsTheCipher_fromLeaseAndPool() {
    try (CipherLease lease = new CipherLease(pools)) {
      Cipher broken = lease.borrow(Mode.CBC);
      lease.invalidate(Mode.CBC, broken);
      assertThat(lease.borrow(Mode.CBC)).isNotSameAs(broken);
    }
    assertThat(pools.pool(Mode.CBC).getDestroyedCount()).isEqualTo(1);
  }

  @Test
  void failedDecryptionInALease_leavesNoCipherBorrowed() {
    SecretKey key = new SecretKeySpec(NonceSource.bytes(32), "AES");
    PayloadCipher cipher = new PayloadCipher(pools);
    byte[] payload = cipher.encrypt(Mode.GCM, key, new byte[0], null, new byte[] {1, 2, 3});
    payload[payload.length - 1] ^= 1;
    try (CipherLease lease = cipher.lease()) {
      PayloadCipher leased = cipher.using(lease);
      for (int i = 0; i < 10; i++) {
        assertThatThrownBy(() -> leased.decrypt(Mode.GCM, key, new byte[0], null, payload))
            .isInstanceOf(DecryptionFailedException.class);
      }
      assertThat(leased.decrypt(Mode.GCM, key, new byte[0], null, cipher.encrypt(Mode.GCM, key, new byte[0], null, new byte[] {9})))
          .containsExactly(9);
    }
    assertThat(pools.pool(Mode.GCM).getNumActive()).isZero();
  }
}

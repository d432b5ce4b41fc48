package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class KeptCipherTest {
  private static final byte[] HEADER = "<s/v1:gcm>".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] PLAINTEXT = "the same hundred bytes".getBytes(StandardCharsets.UTF_8);

  /** A pool that makes a new cipher per borrow and counts what comes back. */
  private static final class CountingPool implements CipherSource {
    int borrowed;
    int released;
    int invalidated;

    @Override
    public Cipher borrow(CipherMode mode, SecretKey key) {
      borrowed++;
      try {
        return Cipher.getInstance(mode.transformation());
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void release(CipherMode mode, SecretKey key, Cipher cipher) {
      released++;
    }

    @Override
    public void invalidate(CipherMode mode, Cipher cipher) {
      invalidated++;
    }
  }

  private static SecretKey key(CipherMode mode) {
    byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return mode.family().prepare(new SecretKeySpec(bytes, mode.keyAlgorithm()));
  }

  private static byte[] seal(CipherSource source, CipherMode mode, SecretKey key) {
    byte[] out = new byte[mode.payloadLength(PLAINTEXT.length)];
    mode.family().seal(source, key, HEADER, Bytes.of(new byte[0]), Bytes.of(PLAINTEXT), out);
    return out;
  }

  private static byte[] open(CipherSource source, CipherMode mode, SecretKey key, byte[] payload) {
    byte[] out = new byte[payload.length];
    int length =
        mode.family().open(source, key, HEADER, Bytes.of(new byte[0]), Bytes.of(payload), out);
    return Arrays.copyOf(out, length);
  }

  @ParameterizedTest
  @EnumSource(
      value = CipherMode.class,
      names = {"GCM", "CHACHA"})
  void aKeyUsedAgain_runsOnTheCipherItKept_andItsMessagesOpen(CipherMode mode) {
    KeptCiphers budget = new KeptCiphers(10);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);

    List<byte[]> sealed = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sealed.add(seal(slot.over(pool, key), mode, key));
    }
    for (byte[] payload : sealed) {
      assertThat(open(slot.over(pool, key), mode, key, payload)).isEqualTo(PLAINTEXT);
      // and a cipher that never saw the key opens it too: the kept one sealed correctly
      assertThat(open(pool, mode, key, payload)).isEqualTo(PLAINTEXT);
    }

    // One borrow from the pool, taken out of its books and kept; every later message used it.
    assertThat(pool.borrowed).isEqualTo(1 + sealed.size());
    assertThat(pool.invalidated).isEqualTo(1);
    assertThat(pool.released).isEqualTo(sealed.size()); // the opens on the pool alone
    assertThat(slot.holds()).isTrue();
    assertThat(budget.kept()).isEqualTo(1);
  }

  @Test
  void overTheBudget_aKeyUsesThePoolAsBefore() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(1);
    KeptCipher first = budget.newSlot();
    KeptCipher second = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey a = key(mode);
    SecretKey b = key(mode);

    seal(first.over(pool, a), mode, a);
    seal(second.over(pool, b), mode, b);
    seal(second.over(pool, b), mode, b);

    assertThat(first.holds()).isTrue();
    assertThat(second.holds()).isFalse();
    assertThat(budget.kept()).isEqualTo(1);
    assertThat(pool.released).isEqualTo(2);
  }

  @Test
  void anotherMessageKey_goesToThePool_andIsNeverKept() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(10);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    SecretKey perMessage = key(mode);

    seal(slot.over(pool, key), mode, perMessage);

    assertThat(slot.holds()).isFalse();
    assertThat(budget.kept()).isZero();
    assertThat(pool.released).isEqualTo(1);
  }

  @Test
  void retire_givesBackItsPlace_andNothingIsKeptAfter() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(1);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    byte[] payload = seal(slot.over(pool, key), mode, key);

    slot.retire();

    assertThat(budget.kept()).isZero();
    assertThat(slot.holds()).isFalse();
    // Still usable by a call that holds the key, through the pool, and never kept again.
    assertThat(open(slot.over(pool, key), mode, key, payload)).isEqualTo(PLAINTEXT);
    assertThat(slot.holds()).isFalse();
    assertThat(budget.kept()).isZero();
    assertThat(budget.newSlot()).isNotNull();
  }

  /**
   * A message gives its kept cipher back with a plain store, so a retirement must not touch the
   * stripe meanwhile: it waits for the cipher to come back, then drops it.
   */
  @Test
  void retire_whileTheKeptCipherIsBorrowed_waitsForIt_thenDropsIt() throws Exception {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(1);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    seal(slot.over(pool, key), mode, key);
    CipherSource source = slot.over(pool, key);
    Cipher borrowed = source.borrow(mode, key);

    Thread retirement = new Thread(slot::retire);
    retirement.start();
    retirement.join(200);
    assertThat(retirement.isAlive()).as("the retirement waits for the borrowed cipher").isTrue();
    assertThat(budget.kept()).isEqualTo(1); // still out with its message
    source.release(mode, key, borrowed);
    retirement.join(5_000);

    assertThat(retirement.isAlive()).isFalse();
    assertThat(budget.kept()).isZero();
    assertThat(slot.holds()).isFalse();
    seal(slot.over(pool, key), mode, key);
    assertThat(slot.holds()).as("nothing is kept after the retirement").isFalse();
  }

  /**
   * A borrower that never gives its cipher back (an Error in the JCE) holds a retirement up for a
   * second at most; if it does come back later, it finishes the retirement itself.
   */
  @Test
  void retire_whileABorrowerIsGoneForGood_givesUpWaiting_andALateReturnIsDropped() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(1);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    seal(slot.over(pool, key), mode, key);
    CipherSource source = slot.over(pool, key);
    Cipher borrowed = source.borrow(mode, key);

    slot.retire(); // on the borrower's own thread: only the patience ends it
    assertThat(budget.kept()).isEqualTo(1);
    source.release(mode, key, borrowed);

    assertThat(budget.kept()).isZero();
    assertThat(slot.holds()).isFalse();
  }

  @Test
  void aKeptCipherThatThrows_isDropped_andItsPlaceGivenBack() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(1);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    byte[] payload = seal(slot.over(pool, key), mode, key);
    payload[payload.length - 1] ^= 1;

    assertThatThrownBy(() -> open(slot.over(pool, key), mode, key, payload))
        .isInstanceOf(DecryptionFailedException.class);

    assertThat(budget.kept()).isZero();
    assertThat(slot.holds()).isFalse();
  }

  @Test
  void whileOneThreadHasTheKeptCipher_anotherUsesThePool() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(10);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    seal(slot.over(pool, key), mode, key);
    CipherSource first = slot.over(pool, key);
    Cipher kept = first.borrow(mode, key);

    CipherSource second = slot.over(pool, key);
    Cipher other = second.borrow(mode, key);
    second.release(mode, key, other);
    first.release(mode, key, kept);

    assertThat(other).isNotSameAs(kept);
    assertThat(pool.released).isEqualTo(1);
    assertThat(budget.kept()).isEqualTo(1);
    assertThat(slot.holds()).isTrue();
  }

  /**
   * Two threads using one key at once keep a cipher each, in their own stripes, rather than taking
   * turns with one; retiring the key drops both.
   */
  @Test
  void threadsOfTwoStripes_keepACipherEach_andRetireDropsBoth() throws Exception {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(10);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);
    long here = Thread.currentThread().threadId();

    byte[] sealedHere = seal(slot.over(pool, key), mode, key);
    byte[][] sealedThere = new byte[2][];
    Thread there = null;
    for (int i = 0; there == null; i++) {
      Thread candidate =
          new Thread(
              () -> {
                sealedThere[0] = seal(slot.over(pool, key), mode, key);
                sealedThere[1] = open(slot.over(pool, key), mode, key, sealedHere);
              });
      if (KeptCipher.slotOf(candidate.threadId()) != KeptCipher.slotOf(here)) {
        there = candidate;
      }
      assertThat(i).as("threads tried for another stripe").isLessThan(1000);
    }
    there.start();
    there.join();

    assertThat(KeptCipher.STRIPES).isGreaterThanOrEqualTo(2);
    assertThat(slot.held()).isEqualTo(2);
    assertThat(budget.kept()).isEqualTo(2);
    // One pooled cipher each to start with; the other thread's second message ran on its own.
    assertThat(pool.borrowed).isEqualTo(2);
    assertThat(sealedThere[1]).isEqualTo(PLAINTEXT);
    assertThat(open(slot.over(pool, key), mode, key, sealedThere[0])).isEqualTo(PLAINTEXT);
    assertThat(pool.borrowed).isEqualTo(2);

    slot.retire();
    assertThat(slot.held()).isZero();
    assertThat(budget.kept()).isZero();
    seal(slot.over(pool, key), mode, key);
    assertThat(slot.held()).isZero();
  }

  @Test
  void retire_beforeAnyCipherIsKept_keepsNone() {
    CipherMode mode = CipherMode.GCM;
    KeptCiphers budget = new KeptCiphers(10);
    KeptCipher slot = budget.newSlot();
    CountingPool pool = new CountingPool();
    SecretKey key = key(mode);

    slot.retire();
    seal(slot.over(pool, key), mode, key);

    assertThat(slot.held()).isZero();
    assertThat(budget.kept()).isZero();
    assertThat(pool.released).isEqualTo(1);
  }
}

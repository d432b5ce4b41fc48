package io.cipherd.server.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.pool.CipherPools;
import java.nio.charset.StandardCharsets;
import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch's siv messages leave the thread's Tink ciphers keyed until the batch's scope ends, and
 * never past it: not when the work throws, not outside a scope.
 */
class ThreadKeyScopeTest {
  private static final byte[] HEADER = "<k/v1:siv>".getBytes(StandardCharsets.US_ASCII);

  private final CipherPools pools = new CipherPools(CipherPoolConfig.DEFAULT);
  private final SecretKey key =
      CipherMode.SIV.family().prepare(new SecretKeySpec(NonceSource.bytes(64), "AES"));

  @AfterEach
  void closePools() {
    pools.close();
  }

  @Test
  void outsideAScope_eachMessageForgetsItsKey() {
    seal();

    assertThat(ThreadKeyScope.pending()).isFalse();
  }

  @Test
  void inAScope_theKeyIsForgottenOnceAtItsEnd() {
    boolean[] pendingInside = new boolean[1];

    int sealed =
        ThreadKeyScope.run(
            () -> {
              seal();
              int second = seal();
              pendingInside[0] = ThreadKeyScope.pending();
              return second;
            });

    assertThat(sealed).isPositive();
    assertThat(pendingInside[0]).as("pending between the batch's messages").isTrue();
    assertThat(ThreadKeyScope.pending()).as("pending after the batch").isFalse();
  }

  @Test
  void aScopeWhoseWorkThrows_stillForgets() {
    assertThatThrownBy(
            () ->
                ThreadKeyScope.run(
                    () -> {
                      seal();
                      throw new IllegalStateException("item failed");
                    }))
        .hasMessage("item failed");

    assertThat(ThreadKeyScope.pending()).isFalse();
  }

  @Test
  void aNestedScope_leavesForgettingToTheOuterOne() {
    boolean[] pendingAfterInner = new boolean[1];

    ThreadKeyScope.run(
        () -> {
          ThreadKeyScope.run(this::seal);
          pendingAfterInner[0] = ThreadKeyScope.pending();
          return null;
        });

    assertThat(pendingAfterInner[0]).isTrue();
    assertThat(ThreadKeyScope.pending()).isFalse();
  }

  @Test
  void aFailedOpenInAScope_isPendingToo() {
    byte[] payload = new byte[32];
    boolean[] pending = new boolean[1];

    ThreadKeyScope.run(
        () -> {
          assertThatThrownBy(
                  () ->
                      CipherMode.SIV
                          .family()
                          .open(pools, key, HEADER, Bytes.EMPTY, Bytes.of(payload), new byte[32]))
              .isInstanceOf(DecryptionFailedException.class);
          pending[0] = ThreadKeyScope.pending();
          return null;
        });

    assertThat(pending[0]).isTrue();
    assertThat(ThreadKeyScope.pending()).isFalse();
  }

  private int seal() {
    byte[] plaintext = "row".getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[CipherMode.SIV.payloadLength(plaintext.length)];
    return CipherMode.SIV.family().seal(pools, key, HEADER, Bytes.EMPTY, Bytes.of(plaintext), out);
  }
}

package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.crypto.DecryptionFailedException;
import io.cipherd.server.crypto.KeyVersionRef;
import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A batch's successes told once per operation and version, its failures at once. */
class BatchedObserverTest {
  private final List<String> told = new ArrayList<>();
  private final BatchedObserver batched =
      new BatchedObserver(
          new CryptoObserver() {
            @Override
            public void succeeded(
                CryptoOperation operation, KeyVersionRef version, long items, long bytes) {
              told.add(operation + " " + version + " x" + items + " " + bytes + " B");
            }

            @Override
            public void failed(
                CryptoOperation operation, KeyVersionRef version, RuntimeException error) {
              told.add(operation + " " + version + " failed");
            }
          });

  private final EnvelopeHeader v1 = new EnvelopeHeader("orders", 1, CipherMode.GCM);
  private final EnvelopeHeader v2 = new EnvelopeHeader("orders", 2, CipherMode.GCM);

  @Test
  void successes_areToldAtFlush_oncePerOperationAndVersion_withTheirItemsAndBytes() {
    batched.succeeded(CryptoOperation.DECRYPT, v1, 100);
    batched.succeeded(CryptoOperation.ENCRYPT, v2, 100);
    batched.succeeded(CryptoOperation.DECRYPT, v1, 50);
    // An equal header parsed from another ciphertext counts with the first.
    batched.succeeded(CryptoOperation.DECRYPT, new EnvelopeHeader("orders", 1, CipherMode.GCM), 7);
    batched.succeeded(CryptoOperation.ENCRYPT, v2, 50);

    assertThat(told).isEmpty();
    batched.flush();

    assertThat(told)
        .containsExactly("DECRYPT <orders/v1:gcm> x3 157 B", "ENCRYPT <orders/v2:gcm> x2 150 B");
  }

  @Test
  void failures_areToldAtOnce_andAFlushAfterAFlushTellsNothingTwice() {
    batched.succeeded(CryptoOperation.DECRYPT, v1, 10);
    batched.failed(CryptoOperation.DECRYPT, v1, new DecryptionFailedException());
    assertThat(told).containsExactly("DECRYPT <orders/v1:gcm> failed");

    batched.flush();
    batched.flush();
    batched.succeeded(CryptoOperation.DECRYPT, v1, 5);
    batched.flush();

    assertThat(told)
        .containsExactly(
            "DECRYPT <orders/v1:gcm> failed",
            "DECRYPT <orders/v1:gcm> x1 10 B",
            "DECRYPT <orders/v1:gcm> x1 5 B");
  }

  @Test
  void manyVersions_inOneBatch_areAllTold() {
    for (int v = 1; v <= 40; v++) {
      batched.succeeded(CryptoOperation.ENCRYPT, new EnvelopeHeader("k", v, CipherMode.GCM), v);
    }
    batched.flush();

    assertThat(told).hasSize(40).contains("ENCRYPT <k/v40:gcm> x1 40 B");
  }

  @Test
  void subjectBoundItems_eachWithARefOfItsOwn_countAsOneVersion() {
    // A subject-bound item reports the version that wraps its subject's key, in an object made per
    // item: 256 of them are one slot, told once, not 256 slots scanned item by item.
    for (int i = 0; i < 256; i++) {
      batched.succeeded(CryptoOperation.ENCRYPT, new KeyVersionRef("users", 3, CipherMode.GCM), 10);
    }
    batched.succeeded(CryptoOperation.ENCRYPT, new KeyVersionRef("users", 4, CipherMode.GCM), 10);
    batched.succeeded(CryptoOperation.ENCRYPT, new KeyVersionRef("users", 3, CipherMode.CHACHA), 1);
    batched.flush();

    assertThat(told)
        .containsExactly(
            "ENCRYPT users/v3:gcm x256 2560 B",
            "ENCRYPT users/v4:gcm x1 10 B",
            "ENCRYPT users/v3:chacha x1 1 B");
  }
}

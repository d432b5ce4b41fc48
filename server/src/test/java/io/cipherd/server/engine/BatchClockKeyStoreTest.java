package io.cipherd.server.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.subjectkeys.BatchTime;
import org.junit.jupiter.api.Test;

/**
 * A key-store call made within a batch moves the batch's time to when it returned, whether it
 * answered or failed; outside a batch it changes nothing.
 */
class BatchClockKeyStoreTest {
  private final KeyStore store = new BatchClockKeyStore(new InMemoryKeyStore());

  @Test
  void reads_answeredOrFailed_moveTheBatchsTime() {
    assertThat(BatchTime.movedBy(() -> store.readKey("orders"))).isTrue();
    assertThat(BatchTime.movedBy(store::listKeyNames)).isTrue();
    assertThatThrownBy(() -> store.readMaterial("orders", null))
        .isInstanceOf(KeyNotFoundException.class);
    assertThat(BatchTime.movedBy(() -> store.readMaterial("orders", null))).isTrue();
    // Without a store call, it stays.
    assertThat(BatchTime.movedBy(() -> {})).isFalse();
  }

  @Test
  void outsideABatch_callsGoStraightThrough() {
    assertThat(store.readKey("orders")).isEmpty();
    assertThat(store.listKeyNames()).isEmpty();
  }
}

package io.cipherd.server.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.UsageLedger.Use;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One replica's key maintenance: usage merged into the store's totals, then due rotations. */
class KeyMaintenanceTest {
  private static final KeyPolicy TWO_ENCRYPTIONS =
      new KeyPolicy(0, 0, /* allowEcbEncryption= */ false, Duration.ZERO, 2);

  private final InMemoryKeyStore store = new InMemoryKeyStore();
  private final Keys keys = Keys.over(store);
  private final KeyMaintenance maintenance =
      new KeyMaintenance(
          new UsageMerger(keys.usage(), store),
          new AutoRotation(keys.usage(), keys.cache(), keys.admin()));

  @AfterEach
  void close() {
    keys.close();
  }

  @Test
  void runNow_mergesTheCounts_thenRotatesTheKeysTheyMakeDue() {
    keys.create("capped", KeyTemplate.of(CipherMode.GCM), TWO_ENCRYPTIONS);
    keys.create("below", KeyTemplate.of(CipherMode.GCM), TWO_ENCRYPTIONS);
    keys.usage().record("capped", 1, Use.ENCRYPT);
    keys.usage().record("capped", 1, Use.ENCRYPT);
    keys.usage().record("below", 1, Use.ENCRYPT);

    assertThat(maintenance.runNow()).isEqualTo(1);

    assertThat(store.readUsage("capped").get(1).encryptions()).isEqualTo(2);
    assertThat(store.readUsage("below").get(1).encryptions()).isEqualTo(1);
    assertThat(keys.describe("capped").currentVersion()).isEqualTo(2);
    assertThat(keys.describe("below").currentVersion()).isEqualTo(1);
    assertThat(maintenance.runNow()).isZero();
  }

  @Test
  void close_mergesWhatWasCountedSinceTheLastRun() {
    keys.create("k", KeyTemplate.of(CipherMode.GCM), TWO_ENCRYPTIONS);
    maintenance.start(Duration.ofHours(1));
    keys.usage().record("k", 1, Use.DECRYPT);

    maintenance.close();

    assertThat(store.readUsage("k").get(1).decryptions()).isEqualTo(1);
  }
}

package io.cipherd.server.maintenance;

import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.usage.UsageLedger.Use;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One replica's key maintenance: usage merged into the store's totals, then due rotations. */
class KeyMaintenanceTest {
  private static final KeyPolicy TWO_ENCRYPTIONS =
      new KeyPolicy(0, 0, /* allowEcbEncryption= */ false, Duration.ZERO, 2);

  private final InMemoryKeyStore store = new InMemoryKeyStore();
  private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final Keys keys = Keys.over(store);
  private final KeyMaintenance maintenance =
      new KeyMaintenance(
          new UsageMerger(keys.usage()),
          new DueRotations(keys.usage(), keys.cache(), keys.admin()),
          new DueDestructions(store, clock, name -> {}, new SimpleMeterRegistry()));

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
  void runNow_destroysTheVersionsWhoseDestructionIsDue() {
    keys.create("k", KeyTemplate.of(CipherMode.GCM), KeyPolicy.DEFAULT);
    KeyMetadata rotated = store.addVersion("k", 1, version(2, CipherMode.GCM, 256));
    store.updateLifecycle(
        rotated,
        LifecycleRules.scheduleDestruction(
            rotated, List.of(1), LifecycleRules.MIN_WINDOW, clock.instant()));

    maintenance.runNow();
    assertThat(store.holdsMaterial("k", 1)).as("not due yet").isTrue();
    clock.advance(LifecycleRules.MIN_WINDOW);
    maintenance.runNow();

    assertThat(store.holdsMaterial("k", 1)).isFalse();
    assertThat(store.readKey("k").orElseThrow().version(1).lifecycle().state())
        .isEqualTo(VersionLifecycle.State.DESTROYED);
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

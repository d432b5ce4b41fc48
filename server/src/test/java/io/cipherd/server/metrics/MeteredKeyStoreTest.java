package io.cipherd.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.Keys;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class MeteredKeyStoreTest {
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final InMemoryKeyStore memory = new InMemoryKeyStore();
  private final MeteredKeyStore store = new MeteredKeyStore(memory, registry);

  @Test
  void calls_areTimedByOperationAndOutcome() {
    Keys keyRing = Keys.over(store, store.usage(memory), Clock.systemUTC());
    keyRing.create("billing", KeyTemplate.of(CipherMode.GCM));
    keyRing.describe("billing");
    store.readKey("absent");
    assertThatThrownBy(
            () ->
                store.readMaterial(
                    "absent", KeyVersionInfo.generated(1, CipherMode.GCM, 256, Instant.EPOCH)))
        .isInstanceOf(KeyNotFoundException.class);

    assertThat(timer("create_key", "ok").count()).isEqualTo(1);
    assertThat(timer("read_key", "ok").count()).isEqualTo(1);
    assertThat(timer("read_material", "key_not_found").count()).isEqualTo(1);
  }

  @Test
  void keyCache_countsHitsMissesAndSize() {
    Keys keyRing = Keys.over(store, store.usage(memory), Clock.systemUTC());
    KeyCacheMetrics.bind(keyRing.cache(), registry);
    keyRing.create("billing", KeyTemplate.of(CipherMode.GCM));
    keyRing.invalidateAll();
    keyRing.describe("billing");
    keyRing.describe("billing");
    keyRing.describe("billing");

    assertThat(
            registry
                .get("cipherd.key.cache.requests")
                .tag("result", "miss")
                .functionCounter()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("cipherd.key.cache.requests")
                .tag("result", "hit")
                .functionCounter()
                .count())
        .isEqualTo(2);
    assertThat(registry.get("cipherd.key.cache.size").gauge().value()).isEqualTo(1);
  }

  private Timer timer(String operation, String outcome) {
    return registry
        .get("cipherd.keystore.calls")
        .tags("operation", operation, "outcome", outcome)
        .timer();
  }
}

package io.cipherd.server.maintenance;

import static io.cipherd.server.keys.KeyStoreContractTest.version;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/** Due destructions on one shared in-memory store, swept by one or several replicas. */
class DueDestructionsTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

  private final InMemoryKeyStore store = new InMemoryKeyStore();
  private final SettableClock clock = new SettableClock(START);
  private final List<String> forgotten = Collections.synchronizedList(new ArrayList<>());
  private final Logger logger = (Logger) LoggerFactory.getLogger(DueDestructions.class);
  private final ListAppender<ILoggingEvent> log = new ListAppender<>();

  @BeforeEach
  void captureLog() {
    log.start();
    logger.addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    logger.detachAppender(log);
  }

  private DueDestructions replica(SimpleMeterRegistry registry) {
    return new DueDestructions(store, clock, forgotten::add, registry);
  }

  private static double destroyedCount(SimpleMeterRegistry registry) {
    return registry.get(DueDestructions.DESTROYED_METER).counter().count();
  }

  /** Key {@code name} with versions 1 to 3, {@code scheduled} ones to be destroyed in a day. */
  private KeyMetadata keyWithScheduled(String name, Integer... scheduled) {
    store.createKey(name, version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    store.addVersion(name, 1, version(2, CipherMode.GCM, 256));
    KeyMetadata key = store.addVersion(name, 2, version(3, CipherMode.GCM, 256));
    return store.updateLifecycle(
        key,
        LifecycleRules.scheduleDestruction(
            key, List.of(scheduled), LifecycleRules.MIN_WINDOW, clock.instant()));
  }

  private List<String> infoLines() {
    return log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void sweep_beforeTheTime_changesNothing_afterIt_destroysOnceAndLogsWhichVersion() {
    keyWithScheduled("payments", 1, 2);
    keyWithScheduled("other", 1);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    DueDestructions sweeper = replica(registry);

    clock.advance(LifecycleRules.MIN_WINDOW.minusSeconds(1));
    assertThat(sweeper.sweep()).isZero();
    assertThat(store.holdsMaterial("payments", 1)).isTrue();

    clock.advance(Duration.ofSeconds(1));
    assertThat(sweeper.sweep()).isEqualTo(3);

    KeyMetadata payments = store.readKey("payments").orElseThrow();
    assertThat(payments.version(1).lifecycle())
        .isEqualTo(VersionLifecycle.destroyed(START.plus(LifecycleRules.MIN_WINDOW)));
    assertThat(store.holdsMaterial("payments", 1)).isFalse();
    assertThat(store.holdsMaterial("payments", 2)).isFalse();
    assertThat(store.holdsMaterial("payments", 3)).isTrue();
    assertThat(destroyedCount(registry)).isEqualTo(3.0);
    assertThat(forgotten).containsExactlyInAnyOrder("payments", "other");
    assertThat(infoLines())
        .contains(
            "destroyed version 1 of key 'payments': its destruction was due at "
                + START.plus(LifecycleRules.MIN_WINDOW),
            "destroyed version 2 of key 'payments': its destruction was due at "
                + START.plus(LifecycleRules.MIN_WINDOW));

    assertThat(sweeper.sweep()).as("a second sweep").isZero();
    assertThat(destroyedCount(registry)).isEqualTo(3.0);
  }

  @Test
  void sweep_ofAKeyWhoseDeletionIsDue_destroysEveryVersionAndLeavesATombstone() {
    store.createKey("old", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    KeyMetadata key = store.addVersion("old", 1, version(2, CipherMode.GCM, 256));
    store.updateLifecycle(
        key, LifecycleRules.scheduleDeletion(key, LifecycleRules.MIN_WINDOW, clock.instant()));
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    clock.advance(Duration.ofDays(2));

    assertThat(replica(registry).sweep()).isEqualTo(2);

    KeyMetadata deleted = store.readKey("old").orElseThrow();
    assertThat(deleted.lifecycle())
        .isEqualTo(KeyLifecycle.deleted(START.plus(LifecycleRules.MIN_WINDOW)));
    assertThat(store.holdsMaterial("old", 1)).isFalse();
    assertThat(store.holdsMaterial("old", 2)).isFalse();
    assertThat(infoLines()).anyMatch(line -> line.startsWith("deleted key 'old'"));
  }

  @Test
  void sweepIfDue_sweepsAtMostOncePerInterval() {
    keyWithScheduled("payments", 1); // due a day after START
    DueDestructions sweeper = replica(new SimpleMeterRegistry());
    clock.advance(LifecycleRules.MIN_WINDOW.minusSeconds(30));
    assertThat(sweeper.sweepIfDue()).isZero(); // sweeps: nothing due yet

    clock.advance(Duration.ofSeconds(30));
    assertThat(sweeper.sweepIfDue()).as("due, but swept 30 s ago").isZero();
    assertThat(store.holdsMaterial("payments", 1)).isTrue();

    clock.advance(DueDestructions.SWEEP_INTERVAL.minusSeconds(30));
    assertThat(sweeper.sweepIfDue()).isEqualTo(1);
    assertThat(store.holdsMaterial("payments", 1)).isFalse();
  }

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void replicasSweepingAtOnce_destroyEachVersionExactlyOnce() throws Exception {
    int replicas = 4;
    keyWithScheduled("payments", 1, 2);
    clock.advance(Duration.ofDays(2));
    List<SimpleMeterRegistry> registries = new ArrayList<>();
    List<DueDestructions> sweepers = new ArrayList<>();
    for (int i = 0; i < replicas; i++) {
      registries.add(new SimpleMeterRegistry());
      sweepers.add(replica(registries.get(i)));
    }
    CyclicBarrier start = new CyclicBarrier(replicas);
    ExecutorService pool = Executors.newFixedThreadPool(replicas);
    List<Integer> results = new ArrayList<>();
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (DueDestructions sweeper : sweepers) {
        done.add(
            pool.submit(
                () -> {
                  start.await();
                  return sweeper.sweep();
                }));
      }
      for (Future<Integer> f : done) {
        results.add(f.get());
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(results).containsExactlyInAnyOrder(2, 0, 0, 0);
    assertThat(registries.stream().mapToDouble(DueDestructionsTest::destroyedCount).sum())
        .isEqualTo(2.0);
    assertThat(forgotten).containsExactly("payments");
    assertThat(infoLines().stream().filter(l -> l.startsWith("destroyed version"))).hasSize(2);
  }
}

package io.cipherd.server.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.CipherdException;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.CountingKeyStore;
import io.cipherd.server.keys.InMemoryKeyStore;
import io.cipherd.server.keys.KeyAlreadyExistsException;
import io.cipherd.server.keys.KeyLifecycle;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.Keys;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.usage.UsageLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Disable, enable, destroy, delete and retire through {@link KeyLifecycleAdmin}, over an in-memory
 * store, with the crypto path of the same replica (and of a second one) checked after each.
 */
class KeyLifecycleAdminTest {
  private static final Duration DAY = Duration.ofDays(1);
  private static final byte[] CONTEXT = "ctx".getBytes();

  private final SettableClock clock = new SettableClock(Instant.parse("2026-11-24T09:00:00Z"));
  private final InMemoryKeyStore memory = new InMemoryKeyStore();
  private final CountingKeyStore store = new CountingKeyStore(memory);
  private final Keys keys = Keys.over(store, clock);
  private final KeyLifecycleAdmin lifecycle = keys.admin().lifecycle();

  @AfterEach
  void close() {
    keys.close();
  }

  @Test
  void scheduledVersion_refusesAtOnce_itsCachedBytesWiped_andCancellingRestoresIt() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String old = keys.encrypt("orders", 0, "card 4111", CONTEXT);
    keys.rotate("orders", KeyTemplate.defaults());
    assertThat(keys.isCached("orders", 1)).isTrue();

    KeyMetadata scheduled = lifecycle.scheduleDestruction("orders", List.of(1), DAY);

    assertThat(scheduled.version(1).lifecycle())
        .isEqualTo(VersionLifecycle.scheduled(clock.instant().plus(DAY)));
    assertThat(keys.isCached("orders", 1)).isFalse();
    assertThat(kindOf(() -> keys.decrypt(old, CONTEXT)))
        .isEqualTo(ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED);

    lifecycle.cancelDestruction("orders", List.of(1));

    assertThat(keys.decrypt(old, CONTEXT)).isEqualTo("card 4111");
  }

  @Test
  void destroyedVersion_isKeyVersionDestroyed_here_andOnAReplicaThatCachedItBeforehand() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String old = keys.encrypt("orders", 0, "card 4111", CONTEXT);
    keys.rotate("orders", KeyTemplate.defaults());
    try (Keys other = Keys.over(store, clock)) {
      assertThat(other.decrypt(old, CONTEXT)).isEqualTo("card 4111");
      try (Keys coldReplica = Keys.over(store, clock)) {
        coldReplica.describe("orders"); // metadata cached, no bytes loaded

        lifecycle.scheduleDestruction("orders", List.of(1), DAY);
        clock.advance(DAY);
        destroyDue("orders");

        assertThat(memory.holdsMaterial("orders", 1)).isFalse();
        assertThat(kindOf(() -> keys.decrypt(old, CONTEXT)))
            .isEqualTo(ErrorKind.KEY_VERSION_DESTROYED);
        assertThat(kindOf(() -> coldReplica.decrypt(old, CONTEXT)))
            .isEqualTo(ErrorKind.KEY_VERSION_DESTROYED);
        // A replica that held the bytes serves from memory until it refreshes, then wipes them.
        assertThat(other.isCached("orders", 1)).isTrue();
        other.refreshCached();
        assertThat(other.isCached("orders", 1)).isFalse();
        assertThat(kindOf(() -> other.decrypt(old, CONTEXT)))
            .isEqualTo(ErrorKind.KEY_VERSION_DESTROYED);
      }
    }
    assertThatThrownBy(() -> lifecycle.cancelDestruction("orders", List.of(1)))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void currentVersion_andShortWindows_andEmptyLists_areRefused() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.rotate("orders", KeyTemplate.defaults());

    assertThatThrownBy(() -> lifecycle.scheduleDestruction("orders", List.of(2), DAY))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessage("version 2 of key 'orders' is the current version; rotate the key first");
    assertThatThrownBy(
            () -> lifecycle.scheduleDestruction("orders", List.of(1), Duration.ofHours(23)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("24 hours");
    assertThatThrownBy(() -> lifecycle.scheduleDeletion("orders", Duration.ofHours(1)))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> lifecycle.cancelDestruction("orders", List.of()))
        .isInstanceOf(InvalidArgumentException.class);
    assertThatThrownBy(() -> lifecycle.scheduleDestruction("orders", List.of(7), DAY))
        .isInstanceOf(KeyNotFoundException.class);
    assertThat(store.calls("updateLifecycle")).isZero();
    assertThat(keys.describe("orders").version(1).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
  }

  @Test
  void disabledKey_refusesEveryUse_thenServesOnceEnabled_withoutRewriting_anAlreadyDisabledKey() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    String old = keys.encrypt("orders", 0, "x", CONTEXT);

    assertThat(lifecycle.disable("orders").lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
    lifecycle.disable("orders");

    assertThat(store.calls("updateLifecycle")).isEqualTo(1);
    assertThat(kindOf(() -> keys.encrypt("orders", 0, "x", CONTEXT)))
        .isEqualTo(ErrorKind.KEY_DISABLED);
    assertThat(kindOf(() -> keys.decrypt(old, CONTEXT))).isEqualTo(ErrorKind.KEY_DISABLED);

    lifecycle.enable("orders");

    assertThat(keys.decrypt(keys.encrypt("orders", 0, "y", CONTEXT), CONTEXT)).isEqualTo("y");
  }

  @Test
  void cancelledDeletion_bringsTheKeyBackDisabled_andADeletedKeyIsATombstone() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    lifecycle.scheduleDeletion("orders", DAY);

    assertThat(kindOf(() -> keys.encrypt("orders", 0, "x", CONTEXT)))
        .isEqualTo(ErrorKind.KEY_DISABLED);
    assertThat(kindOf(() -> keys.rotate("orders", KeyTemplate.defaults())))
        .isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(kindOf(() -> keys.importVersion("orders", KeyTemplate.defaults(), new byte[32])))
        .isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(kindOf(() -> lifecycle.enable("orders"))).isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(lifecycle.cancelDeletion("orders").lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
    lifecycle.enable("orders");
    assertThat(keys.decrypt(keys.encrypt("orders", 0, "x", CONTEXT), CONTEXT)).isEqualTo("x");

    lifecycle.scheduleDeletion("orders", DAY);
    clock.advance(DAY);
    destroyDue("orders");

    assertThatThrownBy(() -> keys.create("orders", KeyTemplate.defaults()))
        .isInstanceOf(KeyAlreadyExistsException.class)
        .hasMessageContaining("belongs to a deleted key");
    assertThatThrownBy(() -> keys.importVersion("orders", KeyTemplate.defaults(), new byte[32]))
        .isInstanceOf(KeyAlreadyExistsException.class)
        .hasMessageContaining("belongs to a deleted key");
    assertThat(kindOf(() -> keys.rotate("orders", KeyTemplate.defaults())))
        .isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(kindOf(() -> keys.updatePolicy("orders", KeyPolicy.DEFAULT)))
        .isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(kindOf(() -> lifecycle.cancelDeletion("orders"))).isEqualTo(ErrorKind.POLICY_DENIED);
    assertThat(keys.list("", 10))
        .singleElement()
        .satisfies(
            key -> assertThat(key.lifecycle().state()).isEqualTo(KeyLifecycle.State.DELETED));
    assertThat(memory.holdsMaterial("orders", 1)).isFalse();
  }

  @Test
  void aLostRace_isRetriedOnTheFreshState() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.rotate("orders", KeyTemplate.defaults());
    // Another replica rotates between this one's read and its write.
    UsageLedger otherUsage = new UsageLedger(memory, clock);
    KeyAdmin otherReplica =
        new KeyAdmin(memory, new KeyCache(memory, otherUsage), clock, otherUsage);
    store.beforeNextUpdateLifecycle(() -> otherReplica.rotate("orders", KeyTemplate.defaults()));

    KeyMetadata scheduled = lifecycle.scheduleDestruction("orders", List.of(1), DAY);

    assertThat(store.calls("updateLifecycle")).isEqualTo(2);
    assertThat(scheduled.currentVersion()).isEqualTo(3);
    assertThat(memory.readKey("orders").orElseThrow().version(1).lifecycle().usable()).isFalse();
  }

  @Test
  void retire_refusesWhileAnOldVersionWasUsedRecently_listingIt() {
    createWithThreeVersions();
    keys.usage().record("orders", 1, UsageLedger.Use.DECRYPT);
    clock.advance(Duration.ofDays(2));

    assertThatThrownBy(() -> lifecycle.retire("orders", 3, null, null, false))
        .isInstanceOfSatisfying(
            KeyVersionsInUseException.class,
            e -> {
              assertThat(e.versions()).containsExactly(1);
              assertThat(e.details()).containsEntry("versions", "1");
            });
    // A shorter quiet period than the time since: version 1 counts as idle.
    assertThat(lifecycle.retire("orders", 3, DAY, null, true).retiredVersions())
        .containsExactly(1, 2);
    assertThat(store.calls("updateLifecycle")).isZero();
  }

  @Test
  void retire_raisesTheMinimum_andSchedulesEveryOlderVersion_inOneWrite_orOnlyPlansIt() {
    createWithThreeVersions();
    keys.usage().record("orders", 3, UsageLedger.Use.ENCRYPT);
    lifecycle.scheduleDestruction("orders", List.of(1), Duration.ofDays(2));
    store.resetCounts();

    Retirement plan = lifecycle.retire("orders", 3, null, Duration.ofDays(3), true);

    assertThat(plan.applied()).isFalse();
    assertThat(plan.retiredVersions()).containsExactly(2);
    assertThat(plan.destroyTime()).isEqualTo(clock.instant().plus(Duration.ofDays(3)));
    assertThat(plan.key()).isEqualTo(memory.readKey("orders").orElseThrow());
    assertThat(store.calls("updateLifecycle")).isZero();

    Retirement done = lifecycle.retire("orders", 3, null, Duration.ofDays(3), false);

    assertThat(store.calls("updateLifecycle")).isEqualTo(1);
    KeyMetadata stored = memory.readKey("orders").orElseThrow();
    assertThat(done.key()).isEqualTo(stored);
    assertThat(stored.policy().minDecryptionVersion()).isEqualTo(3);
    assertThat(stored.version(1).lifecycle().destroyTime())
        .as("an earlier schedule keeps its time")
        .isEqualTo(clock.instant().plus(Duration.ofDays(2)));
    assertThat(stored.version(2).lifecycle())
        .isEqualTo(VersionLifecycle.scheduled(clock.instant().plus(Duration.ofDays(3))));
    assertThat(stored.version(3).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
    assertThat(keys.describe("orders")).isEqualTo(stored);
  }

  @Test
  void retire_checksItsBounds() {
    createWithThreeVersions();

    assertThatThrownBy(() -> lifecycle.retire("orders", 1, null, null, true))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("below_version must be at least 2");
    assertThat(kindOf(() -> lifecycle.retire("orders", 4, null, null, true)))
        .isEqualTo(ErrorKind.POLICY_DENIED);
    assertThatThrownBy(() -> lifecycle.retire("orders", 2, Duration.ofDays(4000), null, true))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("quiet_period");
    assertThatThrownBy(() -> lifecycle.retire("orders", 2, null, Duration.ofHours(2), true))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("pending_window");
    assertThat(kindOf(() -> lifecycle.retire("nothing", 2, null, null, true)))
        .isEqualTo(ErrorKind.KEY_NOT_FOUND);
  }

  @Test
  void preload_neverReadsTheBytesOfScheduledOrDestroyedVersions() {
    createWithThreeVersions();
    lifecycle.scheduleDestruction("orders", List.of(1), DAY);
    lifecycle.scheduleDestruction("orders", List.of(2), Duration.ofDays(9));
    clock.advance(DAY);
    destroyDue("orders");
    keys.invalidateAll();
    store.resetCounts();

    assertThat(keys.cache().preload(List.of("orders"))).isEqualTo(1);

    assertThat(store.calls("readMaterial")).isEqualTo(1);
    assertThat(keys.isCached("orders", 3)).isTrue();
  }

  @Test
  void usableVersions_leaveOutVersionsScheduledOrDestroyed_neverTheCurrentOne() {
    createWithThreeVersions();
    lifecycle.scheduleDestruction("orders", List.of(2), DAY);

    assertThat(keys.cache().usableVersions("orders")).containsExactly(3, 1);

    lifecycle.disable("orders");
    assertThat(keys.cache().usableVersions("orders")).containsExactly(3, 1);
  }

  @Test
  void rotationByPolicy_skipsAKeyThatServesNoCall_soADeletedKeyNeverGetsAVersion() {
    keys.create(
        "orders",
        KeyTemplate.of(CipherMode.GCM),
        new KeyPolicy(0, 0, false, Duration.ofMinutes(1), 0));
    lifecycle.disable("orders");
    clock.advance(Duration.ofMinutes(2));

    assertThat(keys.admin().rotateIfDue("orders")).isZero();
    lifecycle.enable("orders");
    assertThat(keys.admin().rotateIfDue("orders")).isEqualTo(2);

    lifecycle.scheduleDeletion("orders", DAY);
    clock.advance(DAY);
    destroyDue("orders");
    clock.advance(Duration.ofMinutes(2));

    assertThat(keys.admin().rotateIfDue("orders")).isZero();
    assertThat(memory.readKey("orders").orElseThrow().currentVersion()).isEqualTo(2);
  }

  private void createWithThreeVersions() {
    keys.create("orders", KeyTemplate.of(CipherMode.GCM));
    keys.rotate("orders", KeyTemplate.defaults());
    keys.rotate("orders", KeyTemplate.defaults());
  }

  /**
   * What the due-destruction sweep does for one key on this replica: write what is due, erasing
   * bytes, through this replica's cache.
   */
  private void destroyDue(String name) {
    keys.cache()
        .write(
            () -> {
              KeyMetadata now = memory.readKey(name).orElseThrow();
              LifecycleRules.Due due = LifecycleRules.due(now, clock.instant());
              assertThat(due.changed()).isTrue();
              return memory.updateLifecycle(now, due.key());
            });
  }

  private static ErrorKind kindOf(Runnable call) {
    try {
      call.run();
    } catch (CipherdException e) {
      return e.kind();
    }
    throw new AssertionError("expected the call to fail");
  }
}

package io.cipherd.server.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.errors.ErrorKind;
import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Every lifecycle transition, allowed and refused, on metadata alone. */
class LifecycleRulesTest {
  private static final Instant NOW = Instant.parse("2026-11-24T09:00:00Z");
  private static final Duration DAY = Duration.ofDays(1);

  private final KeyMetadata key =
      new KeyMetadata(
          "orders",
          IntStream.rangeClosed(1, 3)
              .mapToObj(v -> KeyVersionInfo.generated(v, CipherMode.GCM, 256, NOW))
              .toList(),
          KeyPolicy.DEFAULT);

  @Test
  void window_defaultsToSevenDays_andRefusesLessThanADay() {
    assertThat(LifecycleRules.window(null)).isEqualTo(Duration.ofDays(7));
    assertThat(LifecycleRules.window(Duration.ZERO)).isEqualTo(Duration.ofDays(7));
    assertThat(LifecycleRules.window(DAY)).isEqualTo(DAY);
    assertThatThrownBy(() -> LifecycleRules.window(Duration.ofHours(23)))
        .isInstanceOf(InvalidArgumentException.class)
        .hasMessageContaining("24 hours");
  }

  @Test
  void disable_thenEnable_keepsVersionsAndPolicy() {
    KeyMetadata disabled = LifecycleRules.disable(key);
    KeyMetadata enabled = LifecycleRules.enable(disabled);

    assertThat(disabled.lifecycle()).isEqualTo(KeyLifecycle.DISABLED);
    assertThat(disabled.lifecycle().serves()).isFalse();
    assertThat(enabled).isEqualTo(key);
  }

  @Test
  void scheduleDestruction_refusesTheCurrentVersion_andRefusesNothingElseBeforeItsTime() {
    assertThatThrownBy(() -> LifecycleRules.scheduleDestruction(key, List.of(3), DAY, NOW))
        .isInstanceOf(KeyPolicyViolationException.class)
        .hasMessageContaining("current version");

    KeyMetadata scheduled = LifecycleRules.scheduleDestruction(key, List.of(1, 2), DAY, NOW);

    assertThat(scheduled.version(1).lifecycle())
        .isEqualTo(VersionLifecycle.scheduled(NOW.plus(DAY)));
    assertThat(scheduled.version(1).lifecycle().usable()).isFalse();
    assertThat(scheduled.version(3).lifecycle()).isEqualTo(VersionLifecycle.ENABLED);
    assertThat(LifecycleRules.due(scheduled, NOW.plus(DAY).minusSeconds(1)).changed()).isFalse();
  }

  @Test
  void schedulingAgain_keepsTheEarlierTime() {
    KeyMetadata first = LifecycleRules.scheduleDestruction(key, List.of(1), DAY, NOW);
    KeyMetadata second =
        LifecycleRules.scheduleDestruction(first, List.of(1), Duration.ofDays(30), NOW.plus(DAY));

    assertThat(second.version(1).lifecycle().destroyTime()).isEqualTo(NOW.plus(DAY));
  }

  @Test
  void cancel_withinTheWindow_restores_andAfterIt_isRefused() {
    KeyMetadata scheduled = LifecycleRules.scheduleDestruction(key, List.of(1), DAY, NOW);

    assertThat(LifecycleRules.cancelDestruction(scheduled, List.of(1), NOW.plusSeconds(60)))
        .isEqualTo(key);
    assertThatThrownBy(() -> LifecycleRules.cancelDestruction(scheduled, List.of(1), NOW.plus(DAY)))
        .isInstanceOf(KeyPolicyViolationException.class);
    assertThatThrownBy(() -> LifecycleRules.cancelDestruction(key, List.of(2), NOW))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void due_destroysWhatIsDue_once_andNamesItsVersions() {
    KeyMetadata scheduled = LifecycleRules.scheduleDestruction(key, List.of(1, 2), DAY, NOW);

    LifecycleRules.Due due = LifecycleRules.due(scheduled, NOW.plus(DAY));

    assertThat(due.changed()).isTrue();
    assertThat(due.versionsToErase()).containsExactly(1, 2);
    assertThat(due.key().version(2).lifecycle())
        .isEqualTo(VersionLifecycle.destroyed(NOW.plus(DAY)));
    assertThat(LifecycleRules.due(due.key(), NOW.plus(Duration.ofDays(9))).changed()).isFalse();
    assertThatThrownBy(() -> LifecycleRules.scheduleDestruction(due.key(), List.of(1), DAY, NOW))
        .hasMessageContaining("already destroyed");
  }

  @Test
  void deletion_refusesEveryCallAtOnce_canBeCancelledDisabled_andEndsAsATombstone() {
    KeyMetadata deleting = LifecycleRules.scheduleDeletion(key, DAY, NOW);

    assertThat(deleting.lifecycle().serves()).isFalse();
    assertThat(LifecycleRules.cancelDeletion(deleting, NOW).lifecycle())
        .isEqualTo(KeyLifecycle.DISABLED);
    assertThatThrownBy(() -> LifecycleRules.enable(deleting))
        .isInstanceOf(KeyPolicyViolationException.class);

    LifecycleRules.Due due = LifecycleRules.due(deleting, NOW.plus(DAY));

    assertThat(due.versionsToErase()).containsExactly(1, 2, 3);
    assertThat(due.key().lifecycle()).isEqualTo(KeyLifecycle.deleted(NOW.plus(DAY)));
    assertThat(due.key().name()).isEqualTo("orders");
    assertThat(LifecycleRules.due(due.key(), NOW.plus(Duration.ofDays(2))).changed()).isFalse();
    assertThatThrownBy(() -> LifecycleRules.cancelDeletion(due.key(), NOW.plus(DAY)))
        .isInstanceOf(KeyPolicyViolationException.class);
  }

  @Test
  void checkServes_refusesADisabledKey_andAScheduledOrDestroyedVersion_withTheirReasons() {
    KeyMetadata scheduled = LifecycleRules.scheduleDestruction(key, List.of(1), DAY, NOW);
    KeyMetadata destroyed = LifecycleRules.due(scheduled, NOW.plus(DAY)).key();
    KeyMetadata disabled = LifecycleRules.disable(key);

    LifecycleRules.checkServes(scheduled, scheduled.version(2));
    assertThatThrownBy(() -> LifecycleRules.checkServes(scheduled, scheduled.version(1)))
        .isInstanceOf(KeyUnavailableException.class)
        .hasMessageContaining("scheduled for destruction")
        .extracting(e -> ((KeyUnavailableException) e).kind())
        .isEqualTo(ErrorKind.KEY_VERSION_DESTRUCTION_SCHEDULED);
    assertThatThrownBy(() -> LifecycleRules.checkServes(destroyed, destroyed.version(1)))
        .hasMessageStartingWith("key version destroyed")
        .extracting(e -> ((KeyUnavailableException) e).kind())
        .isEqualTo(ErrorKind.KEY_VERSION_DESTROYED);
    assertThatThrownBy(() -> LifecycleRules.checkServes(disabled, disabled.version(3)))
        .hasMessage("key 'orders' is disabled")
        .extracting(e -> ((KeyUnavailableException) e).kind())
        .isEqualTo(ErrorKind.KEY_DISABLED);
  }
}

package io.cipherd.server.keycache;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.SettableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Remembered "not found" answers: how long they last, and how their number stays bounded. */
class RecentMissesTest {
  private final SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
  private final RecentMisses misses = new RecentMisses(clock, Duration.ofSeconds(1));

  @Test
  void isRecent_forThePeriodOnly_andNotAfterTheClockIsSetBack() {
    misses.remember("k");
    clock.advance(Duration.ofMillis(999));
    assertThat(misses.isRecent("k")).isTrue();
    assertThat(misses.isRecent("other")).isFalse();

    clock.advance(Duration.ofMillis(1));
    assertThat(misses.isRecent("k")).isFalse();

    misses.remember("k");
    clock.advance(Duration.ofMillis(-1));
    assertThat(misses.isRecent("k")).as("set back before the miss").isFalse();
  }

  @Test
  void forget_endsItAtOnce() {
    misses.remember("k");

    misses.forget("k");

    assertThat(misses.isRecent("k")).isFalse();
  }

  @Test
  void remember_beyondMaxNames_dropsTheOldOnes_keepingTheNewest() {
    for (int i = 0; i < RecentMisses.MAX_NAMES; i++) {
      misses.remember("name-" + i);
    }

    misses.remember("newest");

    assertThat(misses.isRecent("newest")).isTrue();
    assertThat(misses.isRecent("name-0")).isFalse();
  }
}

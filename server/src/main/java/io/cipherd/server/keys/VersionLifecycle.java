package io.cipherd.server.keys;

import java.time.Instant;
import java.util.Objects;

/**
 * Whether a key version's bytes still exist: enabled, scheduled for destruction at {@code
 * destroyTime} (refusing every call meanwhile, so its loss shows while it can be undone), or
 * destroyed at {@code destroyTime} (its bytes erased from the key store for good).
 */
public record VersionLifecycle(State state, Instant destroyTime) {
  /** The states of a version. */
  public enum State {
    ENABLED,
    DESTRUCTION_SCHEDULED,
    DESTROYED
  }

  /** A version whose bytes exist and serve as its policy allows. */
  public static final VersionLifecycle ENABLED = new VersionLifecycle(State.ENABLED, null);

  public VersionLifecycle {
    Objects.requireNonNull(state, "state");
    if ((state == State.ENABLED) != (destroyTime == null)) {
      throw new IllegalArgumentException(
          "a destroy time goes with a scheduled or destroyed version");
    }
  }

  /** Scheduled for destruction at {@code at}. */
  public static VersionLifecycle scheduled(Instant at) {
    return new VersionLifecycle(State.DESTRUCTION_SCHEDULED, at);
  }

  /** Destroyed at {@code at}. */
  public static VersionLifecycle destroyed(Instant at) {
    return new VersionLifecycle(State.DESTROYED, at);
  }

  /** Whether the version may encrypt or decrypt (its policy permitting). */
  public boolean usable() {
    return state == State.ENABLED;
  }

  /** Whether a scheduled destruction is due at {@code now}. */
  public boolean dueAt(Instant now) {
    return state == State.DESTRUCTION_SCHEDULED && !now.isBefore(destroyTime);
  }
}

package io.cipherd.server.keys;

import java.time.Instant;
import java.util.Objects;

/**
 * Whether a key serves cryptographic calls: enabled, disabled (refusing them, every version kept),
 * scheduled for deletion at {@code deleteTime} (refusing them; then every version is destroyed), or
 * deleted at {@code deleteTime}: a tombstone that keeps the name taken, so a new key of that name
 * is never mistaken for it.
 */
public record KeyLifecycle(State state, Instant deleteTime) {
  /** The states of a key. */
  public enum State {
    ENABLED,
    DISABLED,
    DELETION_SCHEDULED,
    DELETED
  }

  public static final KeyLifecycle ENABLED = new KeyLifecycle(State.ENABLED, null);
  public static final KeyLifecycle DISABLED = new KeyLifecycle(State.DISABLED, null);

  public KeyLifecycle {
    Objects.requireNonNull(state, "state");
    boolean timed = state == State.DELETION_SCHEDULED || state == State.DELETED;
    if (timed != (deleteTime != null)) {
      throw new IllegalArgumentException("a delete time goes with a scheduled or deleted key");
    }
  }

  /** Scheduled for deletion at {@code at}. */
  public static KeyLifecycle deletionScheduled(Instant at) {
    return new KeyLifecycle(State.DELETION_SCHEDULED, at);
  }

  /** Deleted at {@code at}. */
  public static KeyLifecycle deleted(Instant at) {
    return new KeyLifecycle(State.DELETED, at);
  }

  /** Whether the key serves cryptographic calls. */
  public boolean serves() {
    return state == State.ENABLED;
  }

  /** Whether a scheduled deletion is due at {@code now}. */
  public boolean dueAt(Instant now) {
    return state == State.DELETION_SCHEDULED && !now.isBefore(deleteTime);
  }
}

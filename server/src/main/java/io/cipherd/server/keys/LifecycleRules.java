package io.cipherd.server.keys;

import io.cipherd.server.errors.InvalidArgumentException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The transitions of a key's and its versions' lifecycles, on metadata only: each returns the new
 * metadata, or refuses with FAILED_PRECONDITION (a transition the current state does not allow) or
 * INVALID_ARGUMENT (a window too short). The key store writes the result with check-and-set, so two
 * replicas never both apply one; erasing the bytes of versions found due is the store's part.
 */
public final class LifecycleRules {
  /** The shortest pending window: a day to notice a loss and cancel. */
  public static final Duration MIN_WINDOW = Duration.ofHours(24);

  /** The pending window when a caller names none. */
  public static final Duration DEFAULT_WINDOW = Duration.ofDays(7);

  /** The longest pending window, as for other durations of the API. */
  public static final Duration MAX_WINDOW = Duration.ofDays(3650);

  private LifecycleRules() {}

  /** {@code requested} as a pending window: the default when null or zero. */
  public static Duration window(Duration requested) {
    if (requested == null || requested.isZero()) {
      return DEFAULT_WINDOW;
    }
    if (requested.compareTo(MIN_WINDOW) < 0 || requested.compareTo(MAX_WINDOW) > 0) {
      throw new InvalidArgumentException(
          "pending_window must be between 24 hours and 3650 days, or absent for 7 days");
    }
    return requested;
  }

  /**
   * Refuses a cryptographic call with {@code version} of {@code key} unless both serve: a key
   * disabled or being deleted, or a version scheduled for destruction or destroyed, answers
   * FAILED_PRECONDITION with its own reason, before any policy check or key bytes.
   */
  public static void checkServes(KeyMetadata key, KeyVersionInfo version) {
    if (!key.lifecycle().serves()) {
      throw KeyUnavailableException.keyDisabled(key.name(), key.lifecycle());
    }
    if (!version.lifecycle().usable()) {
      throw KeyUnavailableException.version(key.name(), version.version(), version.lifecycle());
    }
  }

  /** Disables an enabled (or already disabled) key. */
  public static KeyMetadata disable(KeyMetadata key) {
    refuseIfDeleting(key, "disabled");
    return key.withLifecycle(KeyLifecycle.DISABLED);
  }

  /** Enables a disabled (or already enabled) key. */
  public static KeyMetadata enable(KeyMetadata key) {
    refuseIfDeleting(key, "enabled (cancel its deletion first)");
    return key.withLifecycle(KeyLifecycle.ENABLED);
  }

  /**
   * Schedules {@code versions} for destruction {@code window} after {@code now}. A version already
   * scheduled keeps its earlier time; the current version and destroyed ones are refused.
   */
  public static KeyMetadata scheduleDestruction(
      KeyMetadata key, List<Integer> versions, Duration window, Instant now) {
    refuseIfDeleting(key, "changed");
    if (versions.isEmpty()) {
      throw new InvalidArgumentException("versions must name at least one version");
    }
    Instant at = now.plus(window(window));
    List<KeyVersionInfo> changed = new ArrayList<>(versions.size());
    for (int number : versions) {
      KeyVersionInfo version = key.version(number);
      if (number == key.currentVersion()) {
        throw refused(key, number, "is the current version; rotate the key first");
      }
      switch (version.lifecycle().state()) {
        case ENABLED -> changed.add(version.withLifecycle(VersionLifecycle.scheduled(at)));
        case DESTRUCTION_SCHEDULED -> changed.add(version);
        case DESTROYED -> throw refused(key, number, "is already destroyed");
      }
    }
    return key.withVersionsReplaced(changed);
  }

  /** Restores {@code versions} scheduled for destruction whose time has not come. */
  public static KeyMetadata cancelDestruction(
      KeyMetadata key, List<Integer> versions, Instant now) {
    refuseIfDeleting(key, "changed");
    List<KeyVersionInfo> changed = new ArrayList<>(versions.size());
    for (int number : versions) {
      KeyVersionInfo version = key.version(number);
      VersionLifecycle lifecycle = version.lifecycle();
      if (lifecycle.state() != VersionLifecycle.State.DESTRUCTION_SCHEDULED
          || lifecycle.dueAt(now)) {
        throw refused(key, number, "is not scheduled for destruction (or its time has passed)");
      }
      changed.add(version.withLifecycle(VersionLifecycle.ENABLED));
    }
    return key.withVersionsReplaced(changed);
  }

  /** Schedules the whole key's deletion {@code window} after {@code now}. */
  public static KeyMetadata scheduleDeletion(KeyMetadata key, Duration window, Instant now) {
    refuseIfDeleting(key, "scheduled for deletion again");
    return key.withLifecycle(KeyLifecycle.deletionScheduled(now.plus(window(window))));
  }

  /** Restores a key scheduled for deletion, disabled, so an operator enables it knowingly. */
  public static KeyMetadata cancelDeletion(KeyMetadata key, Instant now) {
    if (key.lifecycle().state() != KeyLifecycle.State.DELETION_SCHEDULED
        || key.lifecycle().dueAt(now)) {
      throw new KeyPolicyViolationException(
          "key '" + key.name() + "' is not scheduled for deletion (or its time has passed)");
    }
    return key.withLifecycle(KeyLifecycle.DISABLED);
  }

  /**
   * What is due at {@code now}: the metadata with due versions (every version, for a key whose
   * deletion is due) marked destroyed, and the versions whose bytes the store must erase.
   */
  public static Due due(KeyMetadata key, Instant now) {
    boolean deleting = key.lifecycle().dueAt(now);
    List<KeyVersionInfo> destroyed = new ArrayList<>();
    for (KeyVersionInfo version : key.versions()) {
      VersionLifecycle lifecycle = version.lifecycle();
      boolean due =
          lifecycle.dueAt(now)
              || (deleting && lifecycle.state() != VersionLifecycle.State.DESTROYED);
      if (due) {
        Instant at = deleting ? key.lifecycle().deleteTime() : lifecycle.destroyTime();
        destroyed.add(version.withLifecycle(VersionLifecycle.destroyed(at)));
      }
    }
    KeyMetadata next = key.withVersionsReplaced(destroyed);
    if (deleting) {
      next = next.withLifecycle(KeyLifecycle.deleted(key.lifecycle().deleteTime()));
    }
    return new Due(
        next,
        destroyed.stream().map(KeyVersionInfo::version).toList(),
        deleting || !destroyed.isEmpty());
  }

  /**
   * The metadata after what was due, the versions whose bytes to erase, and whether anything
   * changed (if not, there is nothing to write).
   */
  public record Due(KeyMetadata key, List<Integer> versionsToErase, boolean changed) {
    public Due {
      versionsToErase = List.copyOf(versionsToErase);
    }
  }

  /**
   * Refuses to import into {@code key}: ALREADY_EXISTS when it is deleted (its name is a
   * tombstone), FAILED_PRECONDITION when it is scheduled for deletion.
   */
  public static void refuseImport(KeyMetadata key) {
    if (key.lifecycle().state() == KeyLifecycle.State.DELETED) {
      throw KeyAlreadyExistsException.deleted(key.name());
    }
    refuseIfDeleting(key, "imported into");
  }

  /** Refuses (FAILED_PRECONDITION) to change a key scheduled for deletion or deleted. */
  public static void refuseIfDeleting(KeyMetadata key, String what) {
    KeyLifecycle.State state = key.lifecycle().state();
    if (state == KeyLifecycle.State.DELETION_SCHEDULED || state == KeyLifecycle.State.DELETED) {
      throw new KeyPolicyViolationException(
          "key '"
              + key.name()
              + "' is "
              + (state == KeyLifecycle.State.DELETED ? "deleted" : "scheduled for deletion")
              + " and cannot be "
              + what);
    }
  }

  private static KeyPolicyViolationException refused(KeyMetadata key, int version, String why) {
    return new KeyPolicyViolationException(
        "version " + version + " of key '" + key.name() + "' " + why);
  }
}

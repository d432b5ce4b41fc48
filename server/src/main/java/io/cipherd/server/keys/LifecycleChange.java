package io.cipherd.server.keys;

import java.util.ArrayList;
import java.util.List;

/**
 * The check every store makes before writing {@link KeyStore#updateLifecycle}: the stored key must
 * still be {@code expected} (else another writer won), and {@code next} may change only lifecycle
 * states and the policy, never un-destroy a version.
 */
public final class LifecycleChange {
  private LifecycleChange() {}

  /**
   * The versions {@code next} destroys that {@code stored} had not, ascending; throws {@link
   * ConcurrentKeyUpdateException} if {@code stored} is no longer {@code expected}, and {@link
   * IllegalArgumentException} if {@code next} adds, removes or alters a version or brings one back.
   */
  public static List<Integer> newlyDestroyed(
      KeyMetadata stored, KeyMetadata expected, KeyMetadata next) {
    if (!stored.lifecycle().equals(expected.lifecycle())
        || !stored.policy().equals(expected.policy())
        || !stored.versions().equals(expected.versions())) {
      throw new ConcurrentKeyUpdateException(expected.name(), expected.currentVersion());
    }
    if (!next.name().equals(stored.name()) || next.versions().size() != stored.versions().size()) {
      throw new IllegalArgumentException(
          "a lifecycle update of key '" + stored.name() + "' cannot add or remove versions");
    }
    List<Integer> destroyed = new ArrayList<>();
    for (KeyVersionInfo now : stored.versions()) {
      KeyVersionInfo after = next.version(now.version());
      if (!after
          .withLifecycle(VersionLifecycle.ENABLED)
          .equals(now.withLifecycle(VersionLifecycle.ENABLED))) {
        throw new IllegalArgumentException(
            "a lifecycle update of key '"
                + stored.name()
                + "' cannot change version "
                + now.version()
                + "'s metadata");
      }
      boolean wasDestroyed = isDestroyed(now);
      if (wasDestroyed && !after.lifecycle().equals(now.lifecycle())) {
        throw new IllegalArgumentException(
            "version " + now.version() + " of key '" + stored.name() + "' is destroyed for good");
      }
      if (!wasDestroyed && isDestroyed(after)) {
        destroyed.add(now.version());
      }
    }
    return destroyed;
  }

  /** Whether {@code version}'s bytes are gone. */
  public static boolean isDestroyed(KeyVersionInfo version) {
    return version.lifecycle().state() == VersionLifecycle.State.DESTROYED;
  }
}

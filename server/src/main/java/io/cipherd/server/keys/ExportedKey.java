package io.cipherd.server.keys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A key whole, as a backup carries it: its metadata (versions with their states and destruction
 * schedules, policy, lifecycle, exportable flag) and the bytes of each version that is not
 * destroyed. Secret: {@link #toString} shows no bytes, and {@link #wipe} overwrites them.
 *
 * @param key the key's metadata
 * @param live the bytes of every version not destroyed, in version order, one each
 */
public record ExportedKey(KeyMetadata key, List<NewKeyVersion> live) {
  public ExportedKey {
    Objects.requireNonNull(key, "key");
    live = List.copyOf(live);
    List<Integer> expected = new ArrayList<>();
    for (KeyVersionInfo version : key.versions()) {
      if (!LifecycleChange.isDestroyed(version)) {
        expected.add(version.version());
      }
    }
    List<Integer> given = live.stream().map(v -> v.info().version()).toList();
    if (!given.equals(expected)) {
      throw new IllegalArgumentException(
          "key '"
              + key.name()
              + "' has material for versions "
              + given
              + ", but its versions not destroyed are "
              + expected);
    }
    for (NewKeyVersion version : live) {
      KeyVersionInfo info = key.version(version.info().version());
      if (!version.info().equals(info.withLifecycle(VersionLifecycle.ENABLED))
          && !version.info().equals(info)) {
        throw new IllegalArgumentException(
            "the material of version "
                + info.version()
                + " of key '"
                + key.name()
                + "' does not describe the version as the key does");
      }
    }
  }

  /** The numbers of the versions whose bytes this holds. */
  public List<Integer> liveVersions() {
    return live.stream().map(v -> v.info().version()).toList();
  }

  /** Overwrites every version's bytes with zeros. */
  public void wipe() {
    live.forEach(version -> Arrays.fill(version.material(), (byte) 0));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ExportedKey e && e.key.equals(key) && e.live.equals(live);
  }

  @Override
  public int hashCode() {
    return key.hashCode();
  }

  @Override
  public String toString() {
    return "ExportedKey[" + key.name() + ", live versions " + liveVersions() + "]";
  }
}

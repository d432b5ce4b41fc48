package io.cipherd.server.keys;

import io.cipherd.server.crypto.envelope.EnvelopeHeader;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A named key's versions and policy, without key bytes.
 *
 * @param name the key's name, as {@link EnvelopeHeader#KEY_NAME_SYNTAX}
 * @param versions every version, oldest first, numbered 1 to n without gaps
 * @param policy the key's policy
 * @param lifecycle whether the key serves cryptographic calls
 * @param exportable whether BackupKey may write the key out; once set, never cleared
 */
public record KeyMetadata(
    String name,
    List<KeyVersionInfo> versions,
    KeyPolicy policy,
    KeyLifecycle lifecycle,
    boolean exportable) {
  /** An enabled key that is not exportable. */
  public KeyMetadata(String name, List<KeyVersionInfo> versions, KeyPolicy policy) {
    this(name, versions, policy, KeyLifecycle.ENABLED);
  }

  /** A key that is not exportable. */
  public KeyMetadata(
      String name, List<KeyVersionInfo> versions, KeyPolicy policy, KeyLifecycle lifecycle) {
    this(name, versions, policy, lifecycle, /* exportable= */ false);
  }

  public KeyMetadata {
    Objects.requireNonNull(lifecycle, "lifecycle");
    if (!EnvelopeHeader.isValidKeyName(name)) {
      throw new IllegalArgumentException("key name must match " + EnvelopeHeader.KEY_NAME_SYNTAX);
    }
    versions = List.copyOf(versions);
    Objects.requireNonNull(policy, "policy");
    if (versions.isEmpty()) {
      throw new IllegalArgumentException("key '" + name + "' has no versions");
    }
    for (int i = 0; i < versions.size(); i++) {
      if (versions.get(i).version() != i + 1) {
        throw new IllegalArgumentException(
            "key '"
                + name
                + "' versions must be numbered 1 to n; found "
                + versions.get(i).version()
                + " at position "
                + (i + 1));
      }
    }
  }

  /** The newest version's number. */
  public int currentVersion() {
    return versions.size();
  }

  /** The newest version. */
  public KeyVersionInfo current() {
    return versions.get(versions.size() - 1);
  }

  /** Whether {@code version} exists. */
  public boolean hasVersion(int version) {
    return version >= 1 && version <= versions.size();
  }

  /** Version {@code version}; throws {@link KeyNotFoundException} if there is none. */
  public KeyVersionInfo version(int version) {
    if (!hasVersion(version)) {
      throw KeyNotFoundException.version(name, version);
    }
    return versions.get(version - 1);
  }

  /** This key with {@code next} added as its newest version. */
  public KeyMetadata withVersion(KeyVersionInfo next) {
    var all = new ArrayList<>(versions);
    all.add(next);
    return new KeyMetadata(name, all, policy, lifecycle, exportable);
  }

  /** This key with another policy. */
  public KeyMetadata withPolicy(KeyPolicy newPolicy) {
    return new KeyMetadata(name, versions, newPolicy, lifecycle, exportable);
  }

  /** This key, exportable (BackupKey may write it out). */
  public KeyMetadata asExportable() {
    return new KeyMetadata(name, versions, policy, lifecycle, /* exportable= */ true);
  }

  /** This key in another lifecycle state. */
  public KeyMetadata withLifecycle(KeyLifecycle next) {
    return new KeyMetadata(name, versions, policy, next, exportable);
  }

  /** This key with {@code changed} in place of the versions of the same numbers. */
  public KeyMetadata withVersionsReplaced(List<KeyVersionInfo> changed) {
    var all = new ArrayList<>(versions);
    for (KeyVersionInfo version : changed) {
      version(version.version());
      all.set(version.version() - 1, version);
    }
    return new KeyMetadata(name, all, policy, lifecycle, exportable);
  }
}

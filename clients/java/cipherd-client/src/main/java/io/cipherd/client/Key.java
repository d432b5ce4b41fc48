package io.cipherd.client;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A key as the server holds it: its versions (oldest first), policy and lifecycle state.
 *
 * @param exportable whether {@link KeyAdmin#backup} may write the key out; never cleared
 */
public record Key(
    String name,
    int currentVersion,
    KeyState state,
    List<KeyVersion> versions,
    KeyPolicy policy,
    Optional<Instant> deleteTime,
    boolean exportable) {
  /** The version numbered {@code version}, if the key has it. */
  public Optional<KeyVersion> version(int version) {
    return versions.stream().filter(v -> v.version() == version).findFirst();
  }
}

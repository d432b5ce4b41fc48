package io.cipherd.server.lifecycle;

import io.cipherd.server.keys.KeyMetadata;
import java.time.Instant;
import java.util.List;

/**
 * A retirement of a key's old versions, done or (with validate-only) planned.
 *
 * @param key the key after the retirement; unchanged when only planned
 * @param retiredVersions the versions this retirement schedules for destruction, oldest first
 *     (versions already scheduled or destroyed are not among them)
 * @param destroyTime when their bytes are erased; null when there are none
 * @param applied whether the key was changed (false for validate-only)
 */
public record Retirement(
    KeyMetadata key, List<Integer> retiredVersions, Instant destroyTime, boolean applied) {
  public Retirement {
    retiredVersions = List.copyOf(retiredVersions);
  }
}

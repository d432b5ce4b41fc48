package io.cipherd.server.lifecycle;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.usage.UsageLedger;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rotation by a key's own policy: when its current version has made enough encryptions (as merged
 * across replicas) or is old enough, a generated version of the same type and size is added.
 */
final class PolicyRotation {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyRotation.class);

  private final KeyStore store;
  private final KeyCache cache;
  private final Clock clock;
  private final UsageLedger usage;
  private final NewVersions versions;

  PolicyRotation(
      KeyStore store, KeyCache cache, Clock clock, UsageLedger usage, NewVersions versions) {
    this.store = store;
    this.cache = cache;
    this.clock = clock;
    this.usage = usage;
    this.versions = versions;
  }

  /**
   * Rotates {@code name} if its policy says so; returns the new version, or 0. Replicas racing here
   * all try to add the same next version with check-and-set: exactly one write succeeds, and the
   * others see the key already rotated, so a limit rotates a key once.
   */
  int rotateIfDue(String name) {
    // The cached view decides whether the store needs reading at all: each interval, most keys are
    // not due.
    Optional<KeyMetadata> cached = cache.peek(name);
    if (cached.isPresent() && rotationReason(cached.get()) == null) {
      return 0;
    }
    KeyMetadata now = store.readKey(name).orElse(null);
    if (now == null) {
      return 0;
    }
    // What another replica rotated (or a policy it changed) is used here from now on.
    cache.offer(now);
    String reason = rotationReason(now);
    if (reason == null) {
      return 0;
    }
    KeyVersionInfo current = now.current();
    if (current.fpe() != null && current.version() + 1 > current.fpe().maxVersion()) {
      LOG.warn(
          "key '{}' is due to rotate ({}) but its version prefix has no room for version {}",
          name,
          reason,
          current.version() + 1);
      return 0;
    }
    NewKeyVersion next =
        versions.generated(
            current.version() + 1, current.type(), current.keySizeBits(), current.fpe());
    try {
      cache.write(() -> store.addVersion(name, current.version(), next));
      LOG.info(
          "rotated key '{}' to version {} by its policy: {}", name, current.version() + 1, reason);
      return current.version() + 1;
    } catch (ConcurrentKeyUpdateException anotherReplicaFirst) {
      // The version this replica would have added exists already: use it, add none.
      cache.reload(name);
      return 0;
    } finally {
      NewVersions.wipe(next);
    }
  }

  /**
   * Why {@code key} must rotate now by its policy, judged on its current version's merged usage;
   * null if not.
   */
  private String rotationReason(KeyMetadata key) {
    if (!key.lifecycle().serves()) {
      // A disabled key rotates once enabled again; a key being deleted or deleted never gets a
      // version, so no bytes outlive its deletion.
      return null;
    }
    KeyVersionInfo current = key.current();
    // The encryptions reserved here count, not only those merged and counted: a version that has
    // reached its cap on this replica rotates now.
    long encryptions = usage.encryptions(key.name(), current.version());
    return key.policy().rotationReason(current, encryptions, clock.instant());
  }
}

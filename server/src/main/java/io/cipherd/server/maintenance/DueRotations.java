package io.cipherd.server.maintenance;

import io.cipherd.server.keycache.KeyCache;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.usage.UsageLedger;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rotates the keys whose policy says they are due (by encryptions or by age), among those this
 * replica uses or has cached; judged on the usage counts as last merged.
 */
public final class DueRotations {
  private static final Logger LOG = LoggerFactory.getLogger(DueRotations.class);

  private final UsageLedger ledger;
  private final KeyCache keys;
  private final KeyAdmin admin;

  public DueRotations(UsageLedger ledger, KeyCache keys, KeyAdmin admin) {
    this.ledger = ledger;
    this.keys = keys;
    this.admin = admin;
  }

  /** The due rotations now; returns how many keys were rotated. One key's failure skips it only. */
  public int rotateDueKeys() {
    Set<String> names = new HashSet<>(ledger.usedKeys());
    names.addAll(keys.cachedNames());
    int rotated = 0;
    for (String name : names) {
      try {
        rotated += admin.rotateIfDue(name) > 0 ? 1 : 0;
      } catch (RuntimeException e) {
        LOG.warn("automatic rotation check of key '{}' failed: {}", name, e.getMessage());
      }
    }
    return rotated;
  }
}

package io.cipherd.server.lifecycle;

import io.cipherd.server.errors.InvalidArgumentException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicyViolationException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.VersionUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A retirement worked out on {@code before}, to write as {@code after}: what the evidence (the
 * inventories of the stored data, then the usage merged across replicas) allows, or a {@link
 * KeyVersionsInUseException} saying what refuses it.
 *
 * @param retired the versions it schedules for destruction, oldest first
 * @param at when their bytes are erased
 */
record RetirementPlan(KeyMetadata before, KeyMetadata after, List<Integer> retired, Instant at) {
  /** Inventories of {@code name} only, and a bounded number of them. */
  static void checkInventories(String name, List<DataInventory> inventories) {
    if (inventories.size() > DataInventory.MAX_INVENTORIES) {
      throw new InvalidArgumentException(
          "inventories: at most " + DataInventory.MAX_INVENTORIES + " per request");
    }
    for (DataInventory inventory : inventories) {
      if (!inventory.keyName().equals(name)) {
        throw new InvalidArgumentException(
            "inventories: inventory '"
                + inventory.source()
                + "' counts key '"
                + inventory.keyName()
                + "', not '"
                + name
                + "' (the key being retired)");
      }
    }
  }

  /**
   * The retirement of {@code key}'s versions below {@code belowVersion} at {@code now}: refused
   * while an inventory counts a ciphertext under one of them, or while one was used (failures
   * included) within {@code quiet} as {@code used} says; else min_decryption_version raised to
   * {@code belowVersion} and every older usable version scheduled for destruction {@code window}
   * from now.
   */
  static RetirementPlan of(
      KeyMetadata key,
      int belowVersion,
      Duration quiet,
      Duration window,
      List<DataInventory> inventories,
      Map<Integer, VersionUsage> used,
      Instant now) {
    LifecycleRules.refuseIfDeleting(key, "retired");
    if (belowVersion > key.currentVersion()) {
      throw new KeyPolicyViolationException(
          "below_version "
              + belowVersion
              + " is above the current version "
              + key.currentVersion()
              + " of key '"
              + key.name()
              + "'");
    }
    // What exists comes first: an inventory's count is evidence, traffic only a sign.
    for (DataInventory inventory : inventories) {
      Map<Integer, Long> stored = inventory.below(belowVersion);
      if (!stored.isEmpty()) {
        throw new KeyVersionsInUseException(key.name(), inventory, stored);
      }
    }
    Instant since = now.minus(quiet);
    // The census's versions (from min_decryption_version up), and below them every version this
    // retirement would schedule: a failed call below the minimum shows its data exists too.
    List<Integer> inUse =
        key.versions().stream()
            .filter(
                version ->
                    version.version() < belowVersion
                        && (version.version() >= key.policy().minDecryptionVersion()
                            || version.lifecycle().usable()))
            .map(KeyVersionInfo::version)
            .filter(version -> usedSince(used.get(version), since))
            .sorted()
            .toList();
    if (!inUse.isEmpty()) {
      throw new KeyVersionsInUseException(key.name(), inUse, quiet);
    }
    List<Integer> retired =
        key.versions().stream()
            .filter(version -> version.version() < belowVersion && version.lifecycle().usable())
            .map(KeyVersionInfo::version)
            .toList();
    KeyMetadata after = key.withPolicy(key.policy().withMinDecryptionVersionAtLeast(belowVersion));
    if (!retired.isEmpty()) {
      after = LifecycleRules.scheduleDestruction(after, retired, window, now);
    }
    return new RetirementPlan(key, after, retired, now.plus(window));
  }

  RetirementPlan {
    retired = List.copyOf(retired);
  }

  /** This plan as the store wrote it. */
  RetirementPlan written(KeyMetadata stored) {
    return new RetirementPlan(before, stored, retired, at);
  }

  Retirement retirement(boolean applied) {
    return new Retirement(
        applied ? after : before, retired, retired.isEmpty() ? null : at, applied);
  }

  private static boolean usedSince(VersionUsage usage, Instant since) {
    return usage != null && usage.lastUsed() != null && usage.lastUsed().isAfter(since);
  }
}

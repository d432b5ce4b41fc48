package io.cipherd.server.usage;

import io.cipherd.server.keys.UsageStore;
import io.cipherd.server.keys.VersionUsage;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Usage totals kept in this process, for a key store that keeps none: encryption caps then count
 * this replica's encryptions since it started, and a restart begins again at zero.
 */
public final class ProcessUsageStore implements UsageStore {
  private final Map<String, Map<Integer, VersionUsage>> totals = new HashMap<>();

  @Override
  public synchronized Map<Integer, VersionUsage> readUsage(String name) {
    return Map.copyOf(totals.getOrDefault(name, Map.of()));
  }

  @Override
  public synchronized Map<Integer, VersionUsage> addUsage(
      String name, Map<Integer, VersionUsage> delta) {
    Map<Integer, VersionUsage> merged = totals.computeIfAbsent(name, n -> new TreeMap<>());
    delta.forEach((version, counts) -> merged.merge(version, counts, VersionUsage::plus));
    return Map.copyOf(merged);
  }
}

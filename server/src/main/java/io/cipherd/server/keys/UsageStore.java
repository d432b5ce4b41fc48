package io.cipherd.server.keys;

import java.util.Map;

/**
 * Where each key's usage totals, merged from every replica, live: what encryption caps and {@code
 * KeyCensus} count against. Thread-safe; calls may block on disk or network.
 */
public interface UsageStore {
  /**
   * Each version's usage as merged so far (versions never used are absent); empty for an unknown
   * key.
   */
  Map<Integer, VersionUsage> readUsage(String name);

  /**
   * Adds {@code delta} (one replica's counts since its last merge) to the stored usage of key
   * {@code name}, atomically against other replicas doing the same, and returns the merged totals.
   */
  Map<Integer, VersionUsage> addUsage(String name, Map<Integer, VersionUsage> delta);
}

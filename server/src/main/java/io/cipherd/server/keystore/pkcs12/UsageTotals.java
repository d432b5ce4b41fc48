package io.cipherd.server.keystore.pkcs12;

import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.cipherd.server.keys.VersionUsage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merged usage counts of every key version, kept in {@code usage.json} ({@link UsageFile}) and
 * read on first use; a damaged file starts them afresh. Not thread-safe: {@link Pkcs12KeyStore}
 * calls this under its lock.
 */
final class UsageTotals {
  private static final Logger LOG = LoggerFactory.getLogger(Pkcs12KeyStore.class);

  private final Path file;

  /** Read from {@link #file} on first use. */
  private Map<String, Map<Integer, VersionUsage>> usage;

  UsageTotals(Path file) {
    this.file = file;
  }

  /** The counts of {@code name}'s versions. */
  Map<Integer, VersionUsage> read(String name) {
    return Map.copyOf(usage().getOrDefault(name, Map.of()));
  }

  /** Adds {@code delta} to {@code name}'s counts and writes the file; returns the new counts. */
  Map<Integer, VersionUsage> add(String name, Map<Integer, VersionUsage> delta) {
    Map<String, Map<Integer, VersionUsage>> all = usage();
    Map<Integer, VersionUsage> merged = new HashMap<>(all.getOrDefault(name, Map.of()));
    delta.forEach((version, counts) -> merged.merge(version, counts, VersionUsage::plus));
    Map<String, Map<Integer, VersionUsage>> next = new HashMap<>(all);
    next.put(name, merged);
    try {
      AtomicFiles.replace(file, out -> out.write(UsageFile.encode(next)));
    } catch (Exception e) {
      throw new KeyStoreUnavailableException(
          "cannot write " + file + "; usage kept for the next merge: " + e, e);
    }
    usage = next;
    return Map.copyOf(merged);
  }

  private Map<String, Map<Integer, VersionUsage>> usage() {
    if (usage == null) {
      try {
        usage = UsageFile.read(file);
      } catch (IOException | RuntimeException e) {
        LOG.warn("{} is unreadable ({}); usage counts start again from zero", file, e.getMessage());
        usage = new HashMap<>();
      }
    }
    return usage;
  }
}

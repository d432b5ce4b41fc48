package io.cipherd.server.cli;

import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of subject keys in memory: the cache of unwrapped keys and the per-caller rate of new
 * subjects; each has a CIPHERD_* variable.
 */
public final class SubjectKeyOptions {
  @Option(
      names = "--subject-cache-size",
      defaultValue = "${env:CIPHERD_SUBJECT_CACHE_SIZE:-100000}",
      description =
          "Most unwrapped subject keys kept in memory (CIPHERD_SUBJECT_CACHE_SIZE); nothing is "
              + "loaded at start-up. Default: ${DEFAULT-VALUE}.")
  int cacheSize;

  @Option(
      names = "--subject-cache-ttl",
      defaultValue = "${env:CIPHERD_SUBJECT_CACHE_TTL:-PT5S}",
      description =
          "How long a cached subject key or state is used before the subject store is asked "
              + "again, ISO-8601 (CIPHERD_SUBJECT_CACHE_TTL): an erasure through another replica "
              + "is honoured here within this time. Default: ${DEFAULT-VALUE}.")
  Duration cacheTtl;

  @Option(
      names = "--subject-creation-rate",
      defaultValue = "${env:CIPHERD_SUBJECT_CREATION_RATE:-1000}",
      description =
          "New subject keys one caller may create per second, with a burst of ten seconds' "
              + "worth; 0 for no limit (CIPHERD_SUBJECT_CREATION_RATE). Past it, encryptions for "
              + "new subjects answer RESOURCE_EXHAUSTED SUBJECT_QUOTA_EXCEEDED. "
              + "Default: ${DEFAULT-VALUE}.")
  int creationRate;

  /** The validated settings. */
  public SubjectKeysConfig toConfig() {
    return new SubjectKeysConfig(cacheSize, cacheTtl, creationRate);
  }
}

package io.cipherd.server.cli;

import io.cipherd.server.importjobs.ImportJobsConfig;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of key import: whether key material may come in the clear, and the import jobs that
 * take it wrapped; each has a CIPHERD_* variable.
 */
public final class ImportOptions {
  @Option(
      names = "--allow-plaintext-key-import",
      defaultValue = "${env:CIPHERD_ALLOW_PLAINTEXT_KEY_IMPORT:-false}",
      description =
          "Let ImportKey take key_material and passphrase in the clear, as well as wrapped for an "
              + "import job (CIPHERD_ALLOW_PLAINTEXT_KEY_IMPORT). Off: plaintext imports answer "
              + "FAILED_PRECONDITION PLAINTEXT_IMPORT_DISABLED.")
  boolean allowPlaintext;

  @Option(
      names = "--import-job-ttl",
      defaultValue = "${env:CIPHERD_IMPORT_JOB_TTL:-PT24H}",
      description =
          "How long an import job (CreateImportJob) accepts its import, ISO-8601, at most PT24H "
              + "(CIPHERD_IMPORT_JOB_TTL). Default: ${DEFAULT-VALUE}.")
  Duration jobTtl;

  @Option(
      names = "--import-jobs-max",
      defaultValue = "${env:CIPHERD_IMPORT_JOBS_MAX:-64}",
      description =
          "Most live (unused, unexpired) import jobs this replica holds; CreateImportJob answers "
              + "RESOURCE_EXHAUSTED beyond (CIPHERD_IMPORT_JOBS_MAX). Default: ${DEFAULT-VALUE}.")
  int maxJobs;

  @Option(
      names = "--import-jobs-per-caller",
      defaultValue = "${env:CIPHERD_IMPORT_JOBS_PER_CALLER:-8}",
      description =
          "Most live import jobs one caller holds on this replica (CIPHERD_IMPORT_JOBS_PER_CALLER). "
              + "Default: ${DEFAULT-VALUE}.")
  int maxJobsPerCaller;

  /** The validated import job settings. */
  public ImportJobsConfig toConfig() {
    return new ImportJobsConfig(jobTtl, maxJobs, maxJobsPerCaller);
  }
}

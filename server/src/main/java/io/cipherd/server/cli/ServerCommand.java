package io.cipherd.server.cli;

import io.cipherd.server.api.RequestLimits;
import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.importjobs.ImportJobsConfig;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.logging.LogFormat;
import io.cipherd.server.pool.CipherPoolConfig;
import io.cipherd.server.subjectkeys.SubjectKeysConfig;
import io.cipherd.server.tracing.TracingConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The command line of {@code cipherd}. Every option can also come from the environment variable
 * named in its description; the command line wins.
 */
@Command(
    name = "cipherd",
    mixinStandardHelpOptions = true,
    version = "cipherd 0.1.0",
    sortOptions = false,
    description = "Key-managed encryption service over gRPC.",
    subcommands = KekCommand.class,
    footer = {
      "",
      "The embedded key store's password comes from CIPHERD_KEYSTORE_PASSWORD "
          + "or the file named by --keystore-password-file.",
      "With --keystore=vault and --vault-auth=token, the token comes from CIPHERD_VAULT_TOKEN "
          + "or the file named by --vault-token-file."
    })
public final class ServerCommand implements Callable<Integer> {
  @Option(
      names = "--host",
      defaultValue = "${env:CIPHERD_HOST:-127.0.0.1}",
      description = "Address to listen on (CIPHERD_HOST). Default: ${DEFAULT-VALUE}.")
  String host;

  @Option(
      names = "--port",
      defaultValue = "${env:CIPHERD_PORT:-50051}",
      description = "gRPC port, 0 for any free port (CIPHERD_PORT). Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(
      names = "--insecure",
      defaultValue = "${env:CIPHERD_INSECURE:-false}",
      description = "Allow plaintext gRPC on a non-loopback address (CIPHERD_INSECURE).")
  boolean insecure;

  /** Where keys live. */
  public enum KeyStoreKind {
    embedded,
    vault
  }

  @Option(
      names = "--keystore",
      defaultValue = "${env:CIPHERD_KEYSTORE:-embedded}",
      description =
          "embedded (PKCS12 file in --data-dir) or vault (KV v2, see --vault-*) (CIPHERD_KEYSTORE). "
              + "Default: ${DEFAULT-VALUE}.")
  KeyStoreKind keyStore;

  @Mixin VaultOptions vault;

  @Mixin KekOptions kek;

  @Mixin SubjectStoreOptions subjectStore;

  @Option(
      names = "--data-dir",
      defaultValue = "${env:CIPHERD_DATA_DIR:-./data}",
      description =
          "Directory of the embedded key store (CIPHERD_DATA_DIR). Default: ${DEFAULT-VALUE}.")
  Path dataDir;

  @Option(
      names = "--keystore-password-file",
      defaultValue = "${env:CIPHERD_KEYSTORE_PASSWORD_FILE}",
      description =
          "File holding the key store password (CIPHERD_KEYSTORE_PASSWORD_FILE); "
              + "CIPHERD_KEYSTORE_PASSWORD is used when this is not set.")
  Path passwordFile;

  @Option(
      names = "--max-message-bytes",
      defaultValue = "${env:CIPHERD_MAX_MESSAGE_BYTES:-4194304}",
      description =
          "Largest request message accepted (CIPHERD_MAX_MESSAGE_BYTES). Default: ${DEFAULT-VALUE}.")
  int maxMessageBytes;

  @Option(
      names = "--max-batch-items",
      defaultValue = "${env:CIPHERD_MAX_BATCH_ITEMS:-4096}",
      description =
          "Most items in one batch request (CIPHERD_MAX_BATCH_ITEMS). Default: ${DEFAULT-VALUE}.")
  int maxBatchItems;

  @Option(
      names = "--cipher-pool-max",
      defaultValue = "${env:CIPHERD_CIPHER_POOL_MAX:-64}",
      description =
          "Most pooled ciphers per mode (CIPHERD_CIPHER_POOL_MAX). Default: ${DEFAULT-VALUE}.")
  int cipherPoolMax;

  @Option(
      names = "--cipher-pool-wait",
      defaultValue = "${env:CIPHERD_CIPHER_POOL_WAIT:-PT0.2S}",
      description =
          "Longest wait for a pooled cipher before RESOURCE_EXHAUSTED, ISO-8601 "
              + "(CIPHERD_CIPHER_POOL_WAIT). Default: ${DEFAULT-VALUE}.")
  Duration cipherPoolWait;

  @Option(
      names = "--blocking-threads",
      defaultValue = "${env:CIPHERD_BLOCKING_THREADS:-8}",
      description =
          "Threads for work that may block on the key store (CIPHERD_BLOCKING_THREADS). "
              + "Default: ${DEFAULT-VALUE}.")
  int blockingThreads;

  @Option(
      names = "--blocking-queue",
      defaultValue = "${env:CIPHERD_BLOCKING_QUEUE:-1024}",
      description =
          "Calls that may wait for a blocking thread before RESOURCE_EXHAUSTED "
              + "(CIPHERD_BLOCKING_QUEUE). Default: ${DEFAULT-VALUE}.")
  int blockingQueue;

  @Option(
      names = "--shutdown-grace",
      defaultValue = "${env:CIPHERD_SHUTDOWN_GRACE:-PT20S}",
      description =
          "How long in-flight calls may finish on SIGTERM, ISO-8601 (CIPHERD_SHUTDOWN_GRACE). "
              + "Default: ${DEFAULT-VALUE}.")
  Duration shutdownGrace;

  @Option(
      names = "--stream-idle-timeout",
      defaultValue = "${env:CIPHERD_STREAM_IDLE_TIMEOUT:-PT60S}",
      description =
          "An item stream that receives no item for this long, with none left to answer, is closed "
              + "with CANCELLED after answering everything it received, ISO-8601 (CIPHERD_STREAM_IDLE_TIMEOUT). "
              + "An open stream holds a call slot of its connection; a minute spans any pause of a client that "
              + "is still producing items. Default: ${DEFAULT-VALUE}.")
  Duration streamIdleTimeout;

  @Mixin ConnectionOptions connections;

  @Option(
      names = "--usage-merge-interval",
      defaultValue = "${env:CIPHERD_USAGE_MERGE_INTERVAL:-PT10S}",
      description =
          "How often per-version usage counts are merged through the key store and automatic "
              + "rotations checked, ISO-8601 (CIPHERD_USAGE_MERGE_INTERVAL). Default: ${DEFAULT-VALUE}.")
  Duration usageMergeInterval;

  @Option(
      names = "--usage-cap-block",
      defaultValue = "${env:CIPHERD_USAGE_CAP_BLOCK:-16777216}",
      description =
          "How many encryptions of one key version this replica may make before it merges them "
              + "through the key store, at most a 64th of the version's limit "
              + "(CIPHERD_USAGE_CAP_BLOCK): replicas together pass an encryption cap by at most "
              + "(replicas - 1) blocks; smaller blocks cost more key-store writes. "
              + "Default: ${DEFAULT-VALUE}.")
  long usageCapBlock;

  @Option(
      names = "--demo-key",
      defaultValue = "${env:CIPHERD_DEMO_KEY:-}",
      description =
          "Create a gcm key with this name on start if it does not exist (CIPHERD_DEMO_KEY).")
  String demoKey;

  @Option(
      names = "--http-port",
      defaultValue = "${env:CIPHERD_HTTP_PORT:-9464}",
      description =
          "HTTP port for /metrics, /healthz and /readyz on the gRPC host, 0 for any free port "
              + "(CIPHERD_HTTP_PORT). Default: ${DEFAULT-VALUE}.")
  int httpPort;

  @Mixin OpsHttpOptions http;

  @Option(
      names = "--log-format",
      defaultValue = "${env:CIPHERD_LOG_FORMAT:-text}",
      description =
          "Log line format: text or json (CIPHERD_LOG_FORMAT). Default: ${DEFAULT-VALUE}.")
  String logFormat;

  @Option(
      names = "--metrics-key-names",
      defaultValue = "${env:CIPHERD_METRICS_KEY_NAMES:-false}",
      description =
          "Label crypto metrics with key names instead of _all; each key adds series "
              + "(CIPHERD_METRICS_KEY_NAMES).")
  boolean metricsKeyNames;

  @Mixin TlsOptions tls;

  @Mixin AuditOptions audit;

  @Mixin TracingOptions tracing;

  @Mixin SubjectKeyOptions subjectKeys;

  @Mixin ImportOptions imports;

  @Option(
      names = "--access-policy",
      defaultValue = "${env:CIPHERD_ACCESS_POLICY}",
      description =
          "YAML access policy: which caller may use which keys for what (CIPHERD_ACCESS_POLICY). "
              + "Without it every caller may do everything.")
  Path accessPolicy;

  /**
   * Parsing only: {@code Main} builds the server from {@link #toConfig()} after picocli returns 0.
   */
  @Override
  public Integer call() {
    return 0;
  }

  /** The validated configuration; reads the key store password from its file or the environment. */
  public ServerConfig toConfig() throws IOException {
    return ServerConfig.builder()
        .host(host)
        .port(port)
        .insecure(insecure)
        .dataDir(dataDir)
        .subjectStore(subjectStore.toConfig(dataDir))
        .keyStorePassword(keyStore == KeyStoreKind.embedded ? password() : new char[0])
        .maxInboundMessageBytes(maxMessageBytes)
        .limits(new RequestLimits(maxBatchItems))
        .cipherPools(new CipherPoolConfig(cipherPoolMax, cipherPoolMax, cipherPoolWait))
        .blockingThreads(blockingThreads)
        .blockingQueue(blockingQueue)
        .shutdownGrace(shutdownGrace)
        .connections(connections.toLimits())
        .streamIdleTimeout(streamIdleTimeout)
        .demoKey(demoKey == null ? "" : demoKey)
        .tls(tls.toConfig())
        .accessPolicy(accessPolicy)
        .build();
  }

  /** The validated metrics, health and logging settings. */
  public ObservabilityConfig toObservabilityConfig() {
    LogFormat format =
        switch (logFormat.strip().toLowerCase(Locale.ROOT)) {
          case "text" -> LogFormat.TEXT;
          case "json" -> LogFormat.JSON;
          default ->
              throw new IllegalArgumentException(
                  "--log-format must be text or json, got " + logFormat);
        };
    return new ObservabilityConfig(
        httpPort, format, metricsKeyNames, usageMergeInterval, http.toLimits());
  }

  /** The validated tracing settings: off when no --otel-endpoint is set. */
  public TracingConfig toTracingConfig() {
    return tracing.toConfig();
  }

  /** The validated audit settings; null when no --audit-log is set. */
  public AuditConfig toAuditConfig() {
    return audit.toConfig();
  }

  /**
   * {@code --usage-cap-block}: encryptions of one key version a replica may make between merges.
   */
  public long usageCapBlock() {
    if (usageCapBlock < 1) {
      throw new IllegalArgumentException(
          "--usage-cap-block must be at least 1, got " + usageCapBlock);
    }
    return usageCapBlock;
  }

  /** The validated subject key cache and creation settings. */
  public SubjectKeysConfig subjectKeysConfig() {
    return subjectKeys.toConfig();
  }

  /** The validated import job settings. */
  public ImportJobsConfig importJobsConfig() {
    return imports.toConfig();
  }

  /** {@code --allow-plaintext-key-import}: ImportKey takes key material in the clear too. */
  public boolean allowPlaintextKeyImport() {
    return imports.allowPlaintext;
  }

  /** Which key store to open. */
  public KeyStoreKind keyStoreKind() {
    return keyStore;
  }

  /** The Vault options, meaningful when {@link #keyStoreKind()} is vault. */
  public VaultOptions vaultOptions() {
    return vault;
  }

  /** The key-encryption key of the Vault store's material ({@code --kek*}). */
  public KekConfig kekConfig() {
    return kek.toConfig();
  }

  private char[] password() throws IOException {
    if (passwordFile != null) {
      String content = Files.readString(passwordFile, StandardCharsets.UTF_8).strip();
      if (content.isEmpty()) {
        throw new IllegalArgumentException("key store password file " + passwordFile + " is empty");
      }
      return content.toCharArray();
    }
    String fromEnv = System.getenv("CIPHERD_KEYSTORE_PASSWORD");
    if (fromEnv == null || fromEnv.isEmpty()) {
      throw new IllegalArgumentException(
          "no key store password: set CIPHERD_KEYSTORE_PASSWORD or "
              + "--keystore-password-file (make run creates one in ./data/keystore-password)");
    }
    return fromEnv.toCharArray();
  }
}

package io.cipherd.server;

import io.cipherd.server.cli.ObservabilityConfig;
import io.cipherd.server.cli.ServerCommand;
import io.cipherd.server.cli.ServerConfig;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyNotFoundException;
import io.cipherd.server.keys.KeyStore;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.pkcs12.Pkcs12KeyStore;
import io.cipherd.server.keystore.vault.VaultConfig;
import io.cipherd.server.keystore.vault.VaultKeyStore;
import io.cipherd.server.lifecycle.KeyAdmin;
import io.cipherd.server.logging.LogOutput;
import io.cipherd.server.metrics.CipherdMetrics;
import io.cipherd.server.security.ReloadingAccessPolicy;
import io.cipherd.server.subjects.RefusingSubjectStore;
import io.cipherd.server.subjects.SubjectStore;
import io.cipherd.server.subjectstore.SubjectStores;
import io.cipherd.server.tracing.Tracing;
import io.cipherd.server.tracing.TracingConfig;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;
import picocli.CommandLine;
import sun.misc.Signal;

/** Starts cipherd: parses the command line, opens the key store, serves until SIGTERM. */
public final class Main {
  private static final Logger log = LoggerFactory.getLogger(Main.class);

  private Main() {}

  public static void main(String[] args) {
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    ServerCommand command = new ServerCommand();
    CommandLine commandLine = new CommandLine(command);
    // A subcommand (cipherd kek migrate) that fails says why in one line, not with a stack trace.
    commandLine.setExecutionExceptionHandler(
        (e, line, parsed) -> {
          line.getErr().println(line.getCommandName() + " failed: " + e.getMessage());
          return 1;
        });
    int exit = commandLine.execute(args);
    if (exit != 0
        || commandLine.isUsageHelpRequested()
        || commandLine.isVersionHelpRequested()
        || commandLine.getParseResult().hasSubcommand()) {
      System.exit(exit);
    }
    try {
      ObservabilityConfig ops = command.toObservabilityConfig();
      LogOutput.use(ops.logFormat());
      serve(command, command.toConfig(), ops);
    } catch (Exception e) {
      log.error("cipherd could not start: {}", e.getMessage());
      System.exit(1);
    }
  }

  /**
   * The subject store the options name; with keys in Vault and no {@code --subject-store-url}, one
   * that refuses subject-bound calls: replicas must share their subject keys, and a file beside
   * each would not be shared.
   */
  private static SubjectStore subjectStore(ServerConfig config, boolean sharedKeys) {
    if (sharedKeys && config.subjectStore().url() == null) {
      return new RefusingSubjectStore(
          "subject-bound data needs a subject store every replica shares: this server keeps its"
              + " keys in Vault and has no --subject-store-url (a PostgreSQL URL; see"
              + " docs/subject-store.md)");
    }
    return SubjectStores.open(config.subjectStore());
  }

  private static void serve(ServerCommand command, ServerConfig config, ObservabilityConfig ops)
      throws Exception {
    ReloadingAccessPolicy accessPolicy = loadAccessPolicy(config);
    VaultConfig vault =
        command.keyStoreKind() == ServerCommand.KeyStoreKind.vault
            ? command.vaultOptions().toConfig()
            : null;
    KekConfig kek = command.kekConfig();
    if (vault == null && kek.enabled()) {
      throw new IllegalArgumentException(
          "--kek wraps the material kept in Vault: it needs --keystore=vault (the embedded store's"
              + " file is protected by its password; docs/security.md)");
    }
    KeyStore keyStore =
        vault != null
            ? VaultKeyStore.open(vault, kek)
            : Pkcs12KeyStore.open(config.dataDir(), config.keyStorePassword());
    if (keyStore instanceof VaultKeyStore store) {
      store
          .kekId()
          .ifPresentOrElse(
              id ->
                  log.info(
                      "key material in Vault wrapped by the key-encryption key {}{}",
                      id,
                      kek.requireWrapped() ? "; unwrapped material refused" : ""),
              () ->
                  log.warn(
                      "no --kek: key material and the audit key are kept unwrapped in Vault, so"
                          + " whoever can read {}/{} holds every key (docs/security.md)",
                      vault.mount(),
                      vault.prefix()));
    }
    String where =
        vault != null
            ? "keys in Vault at "
                + vault.addressText()
                + " under "
                + vault.mount()
                + "/"
                + vault.prefix()
            : "the embedded key store in " + config.dataDir();
    TracingConfig tracingConfig = command.toTracingConfig();
    Tracing tracing = Tracing.start(tracingConfig);
    if (tracing.enabled()) {
      log.info(
          "tracing calls to {} at sampling ratio {}{}",
          tracingConfig.endpoint(),
          tracingConfig.samplingRatio(),
          tracingConfig.trustParentSampling() ? "" : ", whatever the caller's traceparent says");
    }
    Cipherd services =
        Cipherd.builder(keyStore)
            .config(config)
            .metrics(new CipherdMetrics(ops.metricsKeyNames(), tracing.exemplars()))
            .tracing(tracing)
            .accessPolicy(accessPolicy)
            .audit(command.toAuditConfig())
            .usageCapBlock(command.usageCapBlock())
            .subjectStore(subjectStore(config, vault != null))
            .subjectKeys(command.subjectKeysConfig())
            .importJobs(command.importJobsConfig())
            .allowPlaintextKeyImport(command.allowPlaintextKeyImport())
            .build();
    createDemoKey(services.admin(), config.demoKey());
    if (vault != null) {
      // Loads every key before the server is ready (the demo key too), then keeps them loaded.
      services.refreshKeysEvery(vault.refreshInterval());
    }
    services.maintainKeysEvery(ops.usageMergeInterval());
    CipherdServer server = CipherdServer.start(config, ops, services);
    log.info("cipherd listening on {}:{} with {}", config.host(), server.port(), where);
    log.info(
        "metrics and probes on http://{}:{}/metrics, /healthz, /readyz",
        config.host(),
        server.httpPort());
    // SIGTERM and SIGINT drain the server and then exit 0 through System.exit, so the JVM's own
    // shutdown hooks (a JFR recording's dump, log flushing) still run. A shutdown hook could not
    // do that: the JVM would report 128+signal, and halting to avoid it would skip the other hooks.
    Runnable stop =
        () -> {
          log.info("shutting down: draining in-flight calls for up to {}", config.shutdownGrace());
          server.close();
          log.info("cipherd stopped");
          System.exit(0);
        };
    AtomicBoolean stopping = new AtomicBoolean();
    for (String name : new String[] {"TERM", "INT"}) {
      Signal.handle(
          new Signal(name),
          signal -> {
            if (stopping.compareAndSet(false, true)) {
              // Threads a signal handler starts are daemons: without this, main's
              // awaitTermination()
              // returning could end the JVM before close() finished and System.exit(0) ran.
              Thread shutdown = new Thread(stop, "cipherd-shutdown");
              shutdown.setDaemon(false);
              shutdown.start();
            }
          });
    }
    server.awaitTermination();
  }

  /** Null when no policy is configured; a bad file stops the start with the entry at fault. */
  private static ReloadingAccessPolicy loadAccessPolicy(ServerConfig config) throws IOException {
    if (config.accessPolicy() == null) {
      log.warn("no --access-policy: every caller may use every key for everything");
      return null;
    }
    ReloadingAccessPolicy policy =
        ReloadingAccessPolicy.start(config.accessPolicy(), ReloadingAccessPolicy.DEFAULT_PERIOD);
    log.info(
        "access policy {}: {} callers, default deny; re-read when it changes",
        config.accessPolicy(),
        policy.get().callers());
    return policy;
  }

  private static void createDemoKey(KeyAdmin keys, String name) {
    if (name.isEmpty()) {
      return;
    }
    try {
      keys.describe(name);
    } catch (KeyNotFoundException absent) {
      keys.create(name, KeyTemplate.of(CipherMode.GCM).withKeySizeBits(256));
      log.info("created gcm key '{}' for trying cipherd out", name);
    }
  }
}

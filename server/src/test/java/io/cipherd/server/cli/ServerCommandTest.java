package io.cipherd.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.audit.AuditConfig;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.security.TlsConfig;
import io.cipherd.server.tracing.TracingConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The security, connection and stream options of the command line become a validated configuration.
 */
class ServerCommandTest {
  @TempDir Path dir;

  @Test
  void tlsAndPolicyOptions_reachTheConfig() throws Exception {
    Path cert = Files.writeString(dir.resolve("tls.crt"), "cert");
    Path key = Files.writeString(dir.resolve("tls.key"), "key");
    Path ca = Files.writeString(dir.resolve("ca.crt"), "ca");
    Path policy = dir.resolve("policy.yaml");

    ServerConfig config =
        parse(
            "--tls-cert",
            cert.toString(),
            "--tls-key",
            key.toString(),
            "--tls-client-ca",
            ca.toString(),
            "--tls-reload-period",
            "PT5M",
            "--access-policy",
            policy.toString());

    assertThat(config.tls()).isEqualTo(new TlsConfig(cert, key, ca, Duration.ofMinutes(5)));
    assertThat(config.tls().mutual()).isTrue();
    assertThat(config.accessPolicy()).isEqualTo(policy);
  }

  @Test
  void noTlsOptions_isPlaintext_withoutPolicy() throws Exception {
    ServerConfig config = parse();
    assertThat(config.tls().enabled()).isFalse();
    assertThat(config.accessPolicy()).isNull();
  }

  @Test
  void connectionAndStreamOptions_reachTheConfig() throws Exception {
    ServerConfig config =
        parse(
            "--max-calls-per-connection",
            "32",
            "--keepalive-time",
            "PT30S",
            "--keepalive-timeout",
            "PT5S",
            "--permit-keepalive-time",
            "PT1M",
            "--max-connection-idle",
            "PT0S",
            "--max-connection-age",
            "PT30M",
            "--max-connection-age-grace",
            "PT10S",
            "--stream-idle-timeout",
            "PT2M",
            "--max-stream-resets",
            "200");

    assertThat(config.connections())
        .isEqualTo(
            new ConnectionLimits(
                32,
                Duration.ofSeconds(30),
                Duration.ofSeconds(5),
                Duration.ofMinutes(1),
                Duration.ZERO,
                Duration.ofMinutes(30),
                Duration.ofSeconds(10),
                200));
    assertThat(config.streamIdleTimeout()).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void noConnectionOrStreamOptions_areTheDefaults() throws Exception {
    ServerConfig config = parse();
    assertThat(config.connections()).isEqualTo(ConnectionLimits.DEFAULT);
    assertThat(config.streamIdleTimeout()).isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void httpPortLimits_reachTheObservabilityConfig_andDefaultToOpsHttpLimitsDefault() {
    assertThat(observability().httpLimits()).isEqualTo(OpsHttpLimits.DEFAULT);
    assertThat(
            observability("--http-request-timeout", "PT5S", "--http-max-connections", "32")
                .httpLimits())
        .isEqualTo(new OpsHttpLimits(Duration.ofSeconds(5), 32));
  }

  @Test
  void httpRequestTimeoutInFractionsOfASecond_orZeroConnections_isRefused() {
    assertThatThrownBy(() -> observability("--http-request-timeout", "PT1.5S"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole seconds");
    assertThatThrownBy(() -> observability("--http-request-timeout", "PT0S"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("whole seconds");
    assertThatThrownBy(() -> observability("--http-max-connections", "0"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max HTTP connections");
  }

  @Test
  void zeroStreamIdleTimeout_isRefused() {
    assertThatThrownBy(() -> parse("--stream-idle-timeout", "PT0S"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("stream idle timeout");
  }

  @Test
  void missingTlsFile_failsWithItsName() {
    assertThatThrownBy(
            () ->
                parse(
                    "--tls-cert",
                    dir.resolve("absent.crt").toString(),
                    "--tls-key",
                    dir.resolve("absent.key").toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("absent.crt");
  }

  @Test
  void auditOptions_reachTheAuditConfig() {
    Path log = dir.resolve("audit.log");
    assertThat(
            audit(
                "--audit-log",
                log.toString(),
                "--audit-required",
                "--audit-checkpoint-interval",
                "PT5S",
                "--audit-rotate-size",
                "1048576"))
        .isEqualTo(new AuditConfig(log, true, Duration.ofSeconds(5), 1 << 20));
    assertThat(audit("--audit-log", "-").file()).isNull();
    AuditConfig named =
        audit(
            "--audit-log",
            log.toString(),
            "--audit-trail-name",
            "pod-0:audit",
            "--audit-retain-files",
            "5");
    assertThat(named.trailName()).isEqualTo("pod-0:audit");
    assertThat(named.retainFiles()).isEqualTo(5);
    assertThat(audit("--audit-log", log.toString()).trailName())
        .endsWith(":" + log.toAbsolutePath())
        .isEqualTo(AuditConfig.defaultTrailName(log));
    assertThat(audit("--audit-log", "-").trailName()).endsWith(":-");
    assertThatThrownBy(
            () -> audit("--audit-log", log.toString(), "--audit-trail-name", "n".repeat(257)))
        .hasMessageContaining("at most 256");
    assertThatThrownBy(() -> audit("--audit-log", log.toString(), "--audit-retain-files", "-1"))
        .hasMessageContaining("retain");
    assertThat(audit("--audit-log", "-").required()).isFalse();
  }

  @Test
  void noAuditLog_isNoAudit_andRequiredWithoutALogIsRefused() {
    assertThat(audit()).isNull();
    assertThatThrownBy(() -> audit("--audit-required"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--audit-log");
    assertThatThrownBy(() -> audit("--audit-log", "-", "--audit-rotate-size", "100"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rotate size");
  }

  /** picocli formats each description: a bare '%' makes it warn on stderr and print it raw. */
  @Test
  void otelOptions_reachTheTracingConfig_andNoEndpointIsNoTracing() {
    ServerCommand traced = new ServerCommand();
    new CommandLine(traced)
        .parseArgs(
            "--otel-endpoint",
            "http://collector:4317",
            "--otel-sampling-ratio",
            "0.1",
            "--otel-service-name",
            "cipherd-eu1",
            "--otel-trust-parent-sampling=false");
    ServerCommand plain = new ServerCommand();
    new CommandLine(plain).parseArgs();

    TracingConfig config = traced.toTracingConfig();

    assertThat(config.enabled()).isTrue();
    assertThat(config.endpoint()).hasToString("http://collector:4317");
    assertThat(config.samplingRatio()).isEqualTo(0.1);
    assertThat(config.serviceName()).isEqualTo("cipherd-eu1");
    assertThat(config.trustParentSampling()).isFalse();
    assertThat(plain.toTracingConfig().enabled()).isFalse();
    assertThat(plain.toTracingConfig().trustParentSampling()).isTrue();
    assertThat(plain.toTracingConfig().samplingRatio()).isEqualTo(1.0);
  }

  @Test
  void kekAlsoUnwrap_reachesTheKekConfig_withTheTokensSettingsForAPkcs11Id() {
    ServerCommand moving = new ServerCommand();
    new CommandLine(moving)
        .parseArgs(
            "--kek=transit",
            "--kek-transit-key",
            "kek-b",
            "--kek-also-unwrap",
            "transit:transit/cipherd-kek,pkcs11:old-kek",
            "--kek-pkcs11-library",
            "/usr/lib/softhsm/libsofthsm2.so",
            "--kek-pkcs11-pin-file",
            "/run/pin");
    ServerCommand plain = new ServerCommand();
    new CommandLine(plain).parseArgs("--kek=transit");

    KekConfig config = moving.kekConfig();

    assertThat(config.transitKey()).isEqualTo("kek-b");
    assertThat(config.alsoUnwrap())
        .containsExactly("transit:transit/cipherd-kek", "pkcs11:old-kek");
    assertThat(config.options())
        .containsEntry("library", "/usr/lib/softhsm/libsofthsm2.so")
        .containsEntry("pin-file", "/run/pin");
    assertThat(plain.kekConfig().alsoUnwrap()).isEmpty();
    assertThat(plain.kekConfig().options()).isEmpty();
  }

  @Test
  void kekCommand_hasMigrateAndRewrap_whoseHelpNamesTheOptionsOfAMove() {
    CommandLine kek = new CommandLine(new ServerCommand()).getSubcommands().get("kek");

    assertThat(kek.getSubcommands()).containsOnlyKeys("migrate", "rewrap");
    assertThat(kek.getSubcommands().get("rewrap").getUsageMessage())
        .contains("--kek-also-unwrap", "--kek-transit-key", "--vault-address", "rotate");
  }

  @Test
  void otelSamplingRatioOutsideZeroToOne_orAnEndpointThatIsNoHttpUrl_isRefused() {
    ServerCommand ratio = new ServerCommand();
    new CommandLine(ratio).parseArgs("--otel-sampling-ratio", "1.5");
    ServerCommand endpoint = new ServerCommand();
    new CommandLine(endpoint).parseArgs("--otel-endpoint", "collector:4317");

    assertThatThrownBy(ratio::toTracingConfig).hasMessageContaining("sampling ratio");
    assertThatThrownBy(endpoint::toTracingConfig).hasMessageContaining("OTLP endpoint");
  }

  @Test
  void usageHelp_formatsEveryDescription() {
    PrintStream err = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    String usage;
    try {
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      usage = new CommandLine(new ServerCommand()).getUsageMessage();
    } finally {
      System.setErr(err);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).doesNotContain("picocli WARN");
    assertThat(usage).contains("--max-connection-age").doesNotContain("%n");
  }

  private static ObservabilityConfig observability(String... args) {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs(args);
    return command.toObservabilityConfig();
  }

  private static AuditConfig audit(String... args) {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs(args);
    return command.toAuditConfig();
  }

  private ServerConfig parse(String... args) throws Exception {
    Path password = Files.writeString(dir.resolve("password"), "pw");
    ServerCommand command = new ServerCommand();
    String[] all = new String[args.length + 2];
    all[0] = "--keystore-password-file";
    all[1] = password.toString();
    System.arraycopy(args, 0, all, 2, args.length);
    new CommandLine(command).parseArgs(all);
    return command.toConfig();
  }
}

package io.cipherd.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cipherd.server.keystore.vault.VaultConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Parsing of --keystore and the --vault-* options (no Vault needed). */
class VaultOptionsTest {
  private static ServerCommand parse(String... args) {
    ServerCommand command = new ServerCommand();
    new CommandLine(command).parseArgs(args);
    return command;
  }

  @Test
  void vaultWithAppRole_usesDefaultMountPrefixAndRefresh_andNeedsNoKeyStorePassword()
      throws Exception {
    ServerCommand command =
        parse(
            "--keystore=vault",
            "--vault-address=https://vault.example:8200/",
            "--vault-auth=approle",
            "--vault-role-id-file=/run/role-id",
            "--vault-secret-id-file=/run/secret-id");

    VaultConfig config = command.vaultOptions().toConfig();

    assertThat(command.keyStoreKind()).isEqualTo(ServerCommand.KeyStoreKind.vault);
    assertThat(command.toConfig().keyStorePassword()).isEmpty();
    assertThat(config.addressText()).isEqualTo("https://vault.example:8200");
    assertThat(config.mount()).isEqualTo("secret");
    assertThat(config.prefix()).isEqualTo("cipherd/keys");
    assertThat(config.auth().loginPath()).isEqualTo("auth/approle/login");
    assertThat(config.refreshInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(config.openTimeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void kubernetesAuth_customMountAndRole() {
    VaultConfig config =
        parse(
                "--keystore=vault",
                "--vault-address=http://127.0.0.1:8200",
                "--vault-auth=kubernetes",
                "--vault-auth-mount=k8s-prod",
                "--vault-kubernetes-role=cipherd",
                "--vault-mount=/kv/",
                "--vault-prefix=team/keys/")
            .vaultOptions()
            .toConfig();

    assertThat(config.auth().loginPath()).isEqualTo("auth/k8s-prod/login");
    assertThat(config.auth().describe()).contains("role cipherd");
    assertThat(config.mount()).isEqualTo("kv");
    assertThat(config.prefix()).isEqualTo("team/keys");
  }

  @Test
  void missingAddressOrAppRoleFiles_areRejectedNamingTheOption() {
    assertThatThrownBy(
            () ->
                parse(
                        "--keystore=vault",
                        "--vault-auth=approle",
                        "--vault-role-id-file=/a",
                        "--vault-secret-id-file=/b")
                    .vaultOptions()
                    .toConfig())
        .hasMessageContaining("CIPHERD_VAULT_ADDRESS");
    assertThatThrownBy(
            () ->
                parse("--keystore=vault", "--vault-address=http://v:8200", "--vault-auth=approle")
                    .vaultOptions()
                    .toConfig())
        .hasMessageContaining("--vault-role-id-file");
  }

  @Test
  void defaultKeyStore_isEmbedded() {
    assertThat(parse().keyStoreKind()).isEqualTo(ServerCommand.KeyStoreKind.embedded);
  }
}

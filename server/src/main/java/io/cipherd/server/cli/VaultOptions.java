package io.cipherd.server.cli;

import io.cipherd.server.keystore.vault.VaultConfig;
import io.cipherd.server.keystore.vault.auth.AppRoleAuth;
import io.cipherd.server.keystore.vault.auth.KubernetesAuth;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.cipherd.server.keystore.vault.auth.VaultAuth;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The {@code --vault-*} options, used when {@code --keystore=vault}; each has a CIPHERD_VAULT_*
 * variable.
 */
public final class VaultOptions {
  /** How cipherd obtains its Vault token. */
  public enum AuthMethod {
    token,
    approle,
    kubernetes
  }

  @Option(
      names = "--vault-address",
      defaultValue = "${env:CIPHERD_VAULT_ADDRESS}",
      description = "Vault's URL, e.g. https://vault:8200 (CIPHERD_VAULT_ADDRESS).")
  URI address;

  @Option(
      names = "--vault-mount",
      defaultValue = "${env:CIPHERD_VAULT_MOUNT:-secret}",
      description = "Path of the KV v2 engine (CIPHERD_VAULT_MOUNT). Default: ${DEFAULT-VALUE}.")
  String mount;

  @Option(
      names = "--vault-prefix",
      defaultValue = "${env:CIPHERD_VAULT_PREFIX:-cipherd/keys}",
      description =
          "Folder in the mount with one secret per key (CIPHERD_VAULT_PREFIX). Default: ${DEFAULT-VALUE}.")
  String prefix;

  @Option(
      names = "--vault-auth",
      defaultValue = "${env:CIPHERD_VAULT_AUTH:-token}",
      description = "token, approle or kubernetes (CIPHERD_VAULT_AUTH). Default: ${DEFAULT-VALUE}.")
  AuthMethod auth;

  @Option(
      names = "--vault-token-file",
      defaultValue = "${env:CIPHERD_VAULT_TOKEN_FILE}",
      description =
          "File holding the token, re-read on each login (CIPHERD_VAULT_TOKEN_FILE); "
              + "CIPHERD_VAULT_TOKEN is used when this is not set.")
  Path tokenFile;

  @Option(
      names = "--vault-auth-mount",
      defaultValue = "${env:CIPHERD_VAULT_AUTH_MOUNT}",
      description =
          "Mount of the approle or kubernetes auth method (CIPHERD_VAULT_AUTH_MOUNT). "
              + "Default: approle or kubernetes.")
  String authMount;

  @Option(
      names = "--vault-role-id-file",
      defaultValue = "${env:CIPHERD_VAULT_ROLE_ID_FILE}",
      description = "File holding the AppRole role_id (CIPHERD_VAULT_ROLE_ID_FILE).")
  Path roleIdFile;

  @Option(
      names = "--vault-secret-id-file",
      defaultValue = "${env:CIPHERD_VAULT_SECRET_ID_FILE}",
      description = "File holding the AppRole secret_id (CIPHERD_VAULT_SECRET_ID_FILE).")
  Path secretIdFile;

  @Option(
      names = "--vault-kubernetes-role",
      defaultValue = "${env:CIPHERD_VAULT_KUBERNETES_ROLE}",
      description = "Vault role to log in as with Kubernetes auth (CIPHERD_VAULT_KUBERNETES_ROLE).")
  String kubernetesRole;

  @Option(
      names = "--vault-kubernetes-jwt-file",
      defaultValue =
          "${env:CIPHERD_VAULT_KUBERNETES_JWT_FILE:-/var/run/secrets/kubernetes.io/serviceaccount/token}",
      description =
          "Service-account JWT for Kubernetes auth (CIPHERD_VAULT_KUBERNETES_JWT_FILE). "
              + "Default: ${DEFAULT-VALUE}.")
  Path kubernetesJwtFile;

  @Option(
      names = "--vault-timeout",
      defaultValue = "${env:CIPHERD_VAULT_TIMEOUT:-PT5S}",
      description =
          "Connect and read timeout of each Vault call, whole seconds, ISO-8601 "
              + "(CIPHERD_VAULT_TIMEOUT). Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(
      names = "--vault-retries",
      defaultValue = "${env:CIPHERD_VAULT_RETRIES:-2}",
      description =
          "Retries of a Vault call that failed to connect or got a 5xx (CIPHERD_VAULT_RETRIES). "
              + "Default: ${DEFAULT-VALUE}.")
  int retries;

  @Option(
      names = "--vault-retry-interval",
      defaultValue = "${env:CIPHERD_VAULT_RETRY_INTERVAL:-PT0.25S}",
      description =
          "Pause between those retries, ISO-8601 (CIPHERD_VAULT_RETRY_INTERVAL). Default: ${DEFAULT-VALUE}.")
  Duration retryInterval;

  @Option(
      names = "--vault-refresh-interval",
      defaultValue = "${env:CIPHERD_VAULT_REFRESH_INTERVAL:-PT30S}",
      description =
          "How often cached keys' current version and policy are re-read, so rotations on other "
              + "replicas are used here, ISO-8601 (CIPHERD_VAULT_REFRESH_INTERVAL). Default: ${DEFAULT-VALUE}.")
  Duration refreshInterval;

  /** The validated Vault configuration; reads no secret yet (auth reads its files at login). */
  public VaultConfig toConfig() {
    return new VaultConfig(
        address,
        mount,
        prefix,
        authentication(),
        timeout,
        timeout,
        retries,
        retryInterval,
        refreshInterval);
  }

  private VaultAuth authentication() {
    return switch (auth) {
      case token ->
          tokenFile != null
              ? TokenAuth.fromFile(tokenFile)
              : TokenAuth.of(System.getenv("CIPHERD_VAULT_TOKEN"));
      case approle ->
          new AppRoleAuth(authMount == null ? "approle" : authMount, roleIdFile, secretIdFile);
      case kubernetes ->
          new KubernetesAuth(
              authMount == null ? "kubernetes" : authMount, kubernetesRole, kubernetesJwtFile);
    };
  }
}

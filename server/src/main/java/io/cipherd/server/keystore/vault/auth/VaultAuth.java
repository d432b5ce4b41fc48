package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.VaultException;

/**
 * One way to obtain a Vault token: a given token, AppRole or Kubernetes. Inputs are read from their
 * files at each login, so rotated credentials (a new secret_id, a refreshed service-account JWT)
 * are used.
 */
public interface VaultAuth {
  /** Logs in through {@code clients} and returns the new token. */
  VaultToken login(VaultClients clients) throws VaultException;

  /** What this method is, for logs and error messages (never a secret). */
  String describe();

  /** The Vault path a login request goes to, for PERMISSION_DENIED messages. */
  String loginPath();
}

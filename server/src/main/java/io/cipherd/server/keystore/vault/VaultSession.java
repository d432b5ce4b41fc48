package io.cipherd.server.keystore.vault;

import io.cipherd.server.keystore.vault.auth.TokenRenewer;
import io.cipherd.server.keystore.vault.auth.VaultAuth;
import io.cipherd.server.keystore.vault.auth.VaultClients;
import io.cipherd.server.keystore.vault.auth.VaultToken;
import io.github.jopenlibs.vault.Vault;
import io.github.jopenlibs.vault.VaultException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The current authenticated Vault client: logs in on open, then keeps the token alive with a {@link
 * TokenRenewer}, which swaps in a new client whenever the token is renewed or replaced.
 */
public final class VaultSession implements AutoCloseable {
  private final VaultConfig config;
  private final VaultClients clients;
  private final VaultErrors errors;
  private final AtomicReference<Vault> client = new AtomicReference<>();
  private final TokenRenewer renewer;

  private VaultSession(VaultConfig config) {
    this.config = config;
    this.clients =
        new VaultClients(
            config.addressText(),
            config.openTimeout(),
            config.readTimeout(),
            config.maxRetries(),
            config.retryInterval());
    this.errors = new VaultErrors(config.addressText());
    this.renewer = new TokenRenewer(config.auth(), clients, this::useToken);
  }

  /**
   * Logs in with the configured auth method and starts renewing the token; fails if Vault refuses
   * or is down.
   */
  public static VaultSession open(VaultConfig config) {
    VaultSession session = new VaultSession(config);
    VaultAuth auth = config.auth();
    VaultToken token;
    try {
      token = auth.login(session.clients);
    } catch (VaultException e) {
      // Vault answers a bad role, secret_id, JWT or token with 400 or 403: a credentials problem,
      // not an outage.
      if (e.getHttpStatusCode() == 400 || e.getHttpStatusCode() == 403) {
        throw session.errors.denied("log in (" + auth.describe() + ") at", auth.loginPath());
      }
      throw session.errors.unreachable("log in (" + auth.describe() + ") at", auth.loginPath(), e);
    }
    session.useToken(token);
    session.renewer.start(token);
    return session;
  }

  /** The client carrying the current token. */
  public Vault client() {
    return client.get();
  }

  public VaultConfig config() {
    return config;
  }

  VaultErrors errors() {
    return errors;
  }

  /** Renewals and logins so far, for tests and logs. */
  public TokenRenewer renewer() {
    return renewer;
  }

  private void useToken(VaultToken token) {
    client.set(clients.client(token.value()));
  }

  @Override
  public void close() {
    renewer.close();
    clients.close();
  }
}

package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.response.AuthResponse;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a Vault token alive: renews it at two thirds of its TTL, and logs in again when renewal
 * fails or the token is not renewable (or has reached its max TTL). A failed login is retried with
 * backoff, up to {@link #MAX_RETRY_DELAY} apart, for as long as cipherd runs.
 */
public final class TokenRenewer implements AutoCloseable {
  static final Duration MIN_USEFUL_TTL = Duration.ofSeconds(2);
  static final Duration FIRST_RETRY_DELAY = Duration.ofSeconds(1);
  static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);
  private static final Logger log = LoggerFactory.getLogger(TokenRenewer.class);

  private final VaultAuth auth;
  private final VaultClients clients;
  private final Consumer<VaultToken> onNewToken;
  private final ScheduledExecutorService scheduler;
  private final AtomicInteger renewals = new AtomicInteger();
  private final AtomicInteger logins = new AtomicInteger();
  private volatile VaultToken current;

  public TokenRenewer(VaultAuth auth, VaultClients clients, Consumer<VaultToken> onNewToken) {
    this.auth = auth;
    this.clients = clients;
    this.onNewToken = onNewToken;
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "cipherd-vault-token");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Begins looking after {@code token}, obtained by the first login. */
  public void start(VaultToken token) {
    current = token;
    scheduleNext(token);
  }

  /** Successful renewals so far. */
  public int renewals() {
    return renewals.get();
  }

  /** Successful logins after the first, so far. */
  public int relogins() {
    return logins.get();
  }

  private void scheduleNext(VaultToken token) {
    if (!token.expires()) {
      return; // a token without TTL (root, or periodic with none) never needs renewing
    }
    long delayMillis = token.ttl().toMillis() * 2 / 3;
    Runnable action = token.renewable() ? this::renew : this::login;
    scheduler.schedule(action, delayMillis, TimeUnit.MILLISECONDS);
  }

  private void renew() {
    VaultToken token = current;
    try {
      AuthResponse response = clients.client(token.value()).auth().renewSelf();
      Duration ttl = Duration.ofSeconds(response.getAuthLeaseDuration());
      if (ttl.compareTo(MIN_USEFUL_TTL) < 0) {
        log.info(
            "Vault token is near its max TTL ({} left); logging in again with {}",
            ttl,
            auth.describe());
        login();
        return;
      }
      VaultToken renewed = new VaultToken(token.value(), ttl, response.isAuthRenewable());
      current = renewed;
      renewals.incrementAndGet();
      log.debug("renewed the Vault token; {} left", ttl);
      scheduleNext(renewed);
    } catch (VaultException | RuntimeException e) {
      log.warn(
          "could not renew the Vault token at {} (HTTP {}); logging in again with {}",
          clients.address(),
          status(e),
          auth.describe());
      login();
    }
  }

  private void login() {
    loginWithRetry(FIRST_RETRY_DELAY);
  }

  private void loginWithRetry(Duration delayOnFailure) {
    try {
      VaultToken token = auth.login(clients);
      current = token;
      onNewToken.accept(token);
      logins.incrementAndGet();
      log.info("logged in to Vault at {} again with {}", clients.address(), auth.describe());
      scheduleNext(token);
    } catch (VaultException | RuntimeException e) {
      log.warn(
          "could not log in to Vault at {} with {} (HTTP {}); retrying in {}",
          clients.address(),
          auth.describe(),
          status(e),
          delayOnFailure);
      Duration next = delayOnFailure.multipliedBy(2);
      Duration capped = next.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : next;
      if (!scheduler.isShutdown()) {
        scheduler.schedule(
            () -> loginWithRetry(capped), delayOnFailure.toMillis(), TimeUnit.MILLISECONDS);
      }
    }
  }

  private static int status(Exception e) {
    return e instanceof VaultException v ? v.getHttpStatusCode() : 0;
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}

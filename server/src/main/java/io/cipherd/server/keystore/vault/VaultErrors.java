package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonValue;
import io.github.jopenlibs.vault.rest.RestResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns Vault failures into key-store errors. Their messages reach callers, so they say only what
 * happened; Vault's address, the path and Vault's own error strings (which never contain secret
 * data; response bodies of reads are never quoted) go to the server log at WARN, once each time the
 * kind of failure changes rather than once per call.
 */
final class VaultErrors {
  /**
   * What a caller is told while Vault cannot be reached or fails; also the open circuit's message.
   */
  static final String UNAVAILABLE = "the key store is unavailable; retry later";

  private static final Logger LOG = LoggerFactory.getLogger(VaultErrors.class);

  private final String address;

  /** The kind of the last failure logged, or null once Vault has answered normally since. */
  private final AtomicReference<String> lastLogged = new AtomicReference<>();

  VaultErrors(String address) {
    this.address = address;
  }

  /** The driver gave up: connection refused, timeout, 5xx or sealed after its bounded retries. */
  RuntimeException unreachable(String operation, String path, VaultException e) {
    int status = e.getHttpStatusCode();
    if (status == 403) {
      return denied(operation, path);
    }
    String why =
        status > 0 ? "answered HTTP " + status : "could not be reached (" + rootCause(e) + ")";
    log(
        status > 0 ? "HTTP " + status : "unreachable",
        "Vault at " + address + " " + why + " while trying to " + operation + " " + path);
    return new KeyStoreUnavailableException(UNAVAILABLE, e);
  }

  /** A 4xx the caller did not expect. */
  RuntimeException unexpected(String operation, String path, RestResponse response) {
    if (response.getStatus() == 403) {
      return denied(operation, path);
    }
    log(
        "HTTP " + response.getStatus(),
        "Vault at "
            + address
            + " refused to "
            + operation
            + " "
            + path
            + ": HTTP "
            + response.getStatus()
            + " "
            + errors(response));
    return new KeyStoreUnavailableException(
        "the key store refused a request (HTTP "
            + response.getStatus()
            + "); the server log has the details");
  }

  KeyStoreAccessDeniedException denied(String operation, String path) {
    // A refused login (or token lookup at login) is about the credentials, not about what the
    // token's policy grants.
    boolean login =
        operation.startsWith("log in") || path.startsWith("auth/") && path.endsWith("/login");
    String hint =
        login
            ? "check the credentials (role id and secret id, token, or service-account JWT) and the auth role's bindings"
            : "grant it in the token's Vault policy (see deploy/vault/cipherd-policy.hcl)";
    log(
        "denied " + operation + " " + endpoint(path),
        "Vault at " + address + " denied permission to " + operation + " " + path + "; " + hint);
    return new KeyStoreAccessDeniedException(
        login
            ? "the key store refused this server's login; check its credentials (the server log has the details)"
            : "the key store denied this server access; an operator must grant it (the server log names what was refused)");
  }

  /** Vault answered a call normally: the next failure is news, and is logged again. */
  void answered() {
    if (lastLogged.get() != null && lastLogged.getAndSet(null) != null) {
      LOG.info("Vault at {} answers normally again", address);
    }
  }

  /**
   * Logs {@code detail} at WARN unless a failure of the same {@code kind} was the last one logged.
   */
  private void log(String kind, String detail) {
    if (!kind.equals(lastLogged.getAndSet(kind))) {
      LOG.warn(detail);
    }
  }

  /**
   * The first two segments of {@code path}, such as {@code secret/data} or {@code auth/approle}: a
   * refusal there is one state whichever key it was for, so caller-chosen names do not each log.
   */
  private static String endpoint(String path) {
    int first = path.indexOf('/');
    int second = first < 0 ? -1 : path.indexOf('/', first + 1);
    return second < 0 ? path : path.substring(0, second);
  }

  /** Vault's {@code errors} array, or empty. */
  static String errors(RestResponse response) {
    try {
      JsonValue errors =
          Json.parse(new String(response.getBody(), StandardCharsets.UTF_8))
              .asObject()
              .get("errors");
      return errors == null ? "" : errors.toString();
    } catch (RuntimeException notJson) {
      return "";
    }
  }

  /**
   * The innermost cause's class and first message line, e.g. {@code ConnectException: Connection
   * refused}.
   */
  static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root.getMessage();
    return root.getClass().getSimpleName() + (message == null ? "" : ": " + firstLine(message));
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }
}

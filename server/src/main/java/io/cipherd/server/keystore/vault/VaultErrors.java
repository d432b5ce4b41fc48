package io.cipherd.server.keystore.vault;

import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonValue;
import io.github.jopenlibs.vault.rest.RestResponse;
import java.nio.charset.StandardCharsets;

/**
 * Turns Vault failures into key-store errors whose messages name Vault's address and the path. Vault's
 * own error strings are quoted (they never contain secret data); response bodies of reads never are.
 */
final class VaultErrors {
  private final String address;

  VaultErrors(String address) {
    this.address = address;
  }

  /** The driver gave up: connection refused, timeout, 5xx or sealed after its bounded retries. */
  RuntimeException unreachable(String operation, String path, VaultException e) {
    int status = e.getHttpStatusCode();
    if (status == 403) {
      return denied(operation, path);
    }
    String why = status > 0 ? "answered HTTP " + status : "could not be reached (" + rootCause(e) + ")";
    return new KeyStoreUnavailableException(
        "Vault at " + address + " " + why + " while trying to " + operation + " " + path, e);
  }

  /** A 4xx the caller did not expect. */
  RuntimeException unexpected(String operation, String path, RestResponse response) {
    if (response.getStatus() == 403) {
      return denied(operation, path);
    }
    return new KeyStoreUnavailableException("Vault at " + address + " refused to " + operation + " " + path
        + ": HTTP " + response.getStatus() + " " + errors(response), null);
  }

  KeyStoreAccessDeniedException denied(String operation, String path) {
    // A refused login is about the credentials, not about what the token's policy grants.
    String hint = path.startsWith("auth/") && path.endsWith("/login")
        ? "check the credentials (role id and secret id, token, or service-account JWT) and the auth role's bindings"
        : "grant it in the token's Vault policy (see deploy/vault/cipherd-policy.hcl)";
    return new KeyStoreAccessDeniedException(
        "Vault at " + address + " denied permission to " + operation + " " + path + "; " + hint);
  }

  /** Vault's {@code errors} array, or empty. */
  static String errors(RestResponse response) {
    try {
      JsonValue errors = Json.parse(new String(response.getBody(), StandardCharsets.UTF_8)).asObject().get("errors");
      return errors == null ? "" : errors.toString();
    } catch (RuntimeException notJson) {
      return "";
    }
  }

  /** The innermost cause's class and first message line, e.g. {@code ConnectException: Connection refused}. */
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

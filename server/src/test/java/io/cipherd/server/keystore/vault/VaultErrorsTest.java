package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyStoreUnavailableException;
import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.rest.RestResponse;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Vault failures as callers see them (what happened, never where) and as the server log records
 * them.
 */
class VaultErrorsTest {
  private static final String ADDRESS = "http://vault.internal.example:8200";
  private static final String PATH = "secret/data/cipherd/keys/payments";

  private final VaultErrors errors = new VaultErrors(ADDRESS);
  private final VaultErrorLog log = new VaultErrorLog();

  @AfterEach
  void closeLog() {
    log.close();
  }

  @Test
  void unreachableVault_tellsCallersItIsUnavailable_andLogsWhereOnce() {
    VaultException refused = new VaultException(new ConnectException("Connection refused"));

    RuntimeException first = errors.unreachable("read", PATH, refused);
    RuntimeException second =
        errors.unreachable("write", "secret/data/cipherd/keys/orders", refused);

    assertThat(first)
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessage("the key store is unavailable; retry later");
    assertNamesNoLocation(first.getMessage());
    assertNamesNoLocation(second.getMessage());
    assertThat(log.warnings())
        .singleElement()
        .asString()
        .contains(ADDRESS, PATH, "could not be reached", "Connection refused");
  }

  @Test
  void deniedAndUnexpectedAnswers_keepThePathAndVaultsErrorsOutOfTheMessage_butInTheLog() {
    RestResponse forbidden =
        new RestResponse(
            403,
            "application/json",
            "{\"errors\":[\"permission denied\"]}".getBytes(StandardCharsets.UTF_8));
    RestResponse badRequest =
        new RestResponse(
            400,
            "application/json",
            "{\"errors\":[\"no handler for route 'secret/data/cipherd/keys/payments'\"]}"
                .getBytes(StandardCharsets.UTF_8));

    RuntimeException denied = errors.unexpected("write", PATH, forbidden);
    RuntimeException refused = errors.unexpected("write", PATH, badRequest);
    RuntimeException login = errors.denied("log in (approle) at", "auth/approle/login");
    RuntimeException serverError =
        errors.unreachable(
            "read", PATH, new VaultException("Vault responded with HTTP status code: 503", 503));

    assertThat(denied)
        .isInstanceOf(KeyStoreAccessDeniedException.class)
        .hasMessageContaining("denied this server access");
    assertThat(refused)
        .isInstanceOf(KeyStoreUnavailableException.class)
        .hasMessageContaining("HTTP 400");
    assertThat(login)
        .isInstanceOf(KeyStoreAccessDeniedException.class)
        .hasMessageContaining("check its credentials");
    assertThat(serverError).isInstanceOf(KeyStoreUnavailableException.class);
    for (RuntimeException e : new RuntimeException[] {denied, refused, login, serverError}) {
      assertNamesNoLocation(e.getMessage());
      assertThat(e.getMessage()).doesNotContain("no handler", "auth/approle");
    }
    assertThat(String.join("\n", log.warnings()))
        .contains(
            ADDRESS + " denied permission to write " + PATH,
            "cipherd-policy.hcl",
            "no handler for route",
            "auth/approle/login",
            "check the credentials",
            "answered HTTP 503");
  }

  @Test
  void theSameFailureAgain_isNotLoggedAgain_untilVaultHasAnsweredNormallyInBetween() {
    VaultException timeout = new VaultException(new SocketTimeoutException("connect timed out"));
    for (int i = 0; i < 5; i++) {
      errors.unreachable("read", PATH, timeout);
    }
    assertThat(log.warnings()).hasSize(1);

    errors.answered();
    errors.answered();
    errors.unreachable("read", PATH, timeout);

    assertThat(log.warnings()).hasSize(2);
    assertThat(log.lines()).filteredOn(line -> line.contains("answers normally again")).hasSize(1);
  }

  private static void assertNamesNoLocation(String message) {
    assertThat(message)
        .doesNotContain("http", "vault.internal", "8200", "secret/", "cipherd/keys", "payments");
  }
}

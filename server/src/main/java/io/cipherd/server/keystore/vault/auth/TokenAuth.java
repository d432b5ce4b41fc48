package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.response.LookupResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * A token given to cipherd (CIPHERD_VAULT_TOKEN or a file a Vault agent keeps fresh); "login" looks
 * it up to learn its TTL, and re-reads the file, so a token replaced on disk is picked up.
 */
public final class TokenAuth implements VaultAuth {
  private final Supplier<String> token;
  private final String source;

  private TokenAuth(Supplier<String> token, String source) {
    this.token = token;
    this.source = source;
  }

  /** The token in {@code value}, for example from an environment variable. */
  public static TokenAuth of(String value) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "Vault token auth needs CIPHERD_VAULT_TOKEN or --vault-token-file");
    }
    String stripped = value.strip();
    return new TokenAuth(() -> stripped, "a token from the environment");
  }

  /** The token in {@code file}, read at each login. */
  public static TokenAuth fromFile(Path file) {
    return new TokenAuth(() -> Secrets.read(file, "Vault token"), "the token in " + file);
  }

  @Override
  public VaultToken login(VaultClients clients) throws VaultException {
    String value = token.get();
    LookupResponse self = clients.client(value).auth().lookupSelf();
    return new VaultToken(value, Duration.ofSeconds(self.getTTL()), self.isRenewable());
  }

  @Override
  public String describe() {
    return "token auth with " + source;
  }

  @Override
  public String loginPath() {
    return "auth/token/lookup-self";
  }
}

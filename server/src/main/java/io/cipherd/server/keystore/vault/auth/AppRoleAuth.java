package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.response.AuthResponse;
import java.nio.file.Path;
import java.time.Duration;

/** AppRole login with role_id and secret_id read from files (as a deployment tool writes them). */
public final class AppRoleAuth implements VaultAuth {
  private final String mount;
  private final Path roleIdFile;
  private final Path secretIdFile;

  public AppRoleAuth(String mount, Path roleIdFile, Path secretIdFile) {
    if (roleIdFile == null || secretIdFile == null) {
      throw new IllegalArgumentException(
          "AppRole auth needs --vault-role-id-file and --vault-secret-id-file");
    }
    this.mount = mount;
    this.roleIdFile = roleIdFile;
    this.secretIdFile = secretIdFile;
  }

  @Override
  public VaultToken login(VaultClients clients) throws VaultException {
    AuthResponse response =
        clients
            .loginClient()
            .auth()
            .loginByAppRole(
                mount,
                Secrets.read(roleIdFile, "AppRole role_id"),
                Secrets.read(secretIdFile, "AppRole secret_id"));
    return new VaultToken(
        response.getAuthClientToken(),
        Duration.ofSeconds(response.getAuthLeaseDuration()),
        response.isAuthRenewable());
  }

  @Override
  public String describe() {
    return "AppRole auth at auth/" + mount + " with role_id from " + roleIdFile;
  }

  @Override
  public String loginPath() {
    return "auth/" + mount + "/login";
  }
}

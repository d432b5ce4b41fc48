package io.cipherd.server.keystore.vault.auth;

import io.github.jopenlibs.vault.VaultException;
import io.github.jopenlibs.vault.response.AuthResponse;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Kubernetes login with the pod's service-account JWT, re-read at each login because kubelet
 * rotates it.
 */
public final class KubernetesAuth implements VaultAuth {
  /** Where Kubernetes mounts a pod's service-account token. */
  public static final Path DEFAULT_JWT_FILE =
      Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");

  private final String mount;
  private final String role;
  private final Path jwtFile;

  public KubernetesAuth(String mount, String role, Path jwtFile) {
    if (role == null || role.isBlank()) {
      throw new IllegalArgumentException("Kubernetes auth needs --vault-kubernetes-role");
    }
    this.mount = mount;
    this.role = role;
    this.jwtFile = jwtFile == null ? DEFAULT_JWT_FILE : jwtFile;
  }

  @Override
  public VaultToken login(VaultClients clients) throws VaultException {
    AuthResponse response =
        clients
            .loginClient()
            .auth()
            .loginByKubernetes(role, Secrets.read(jwtFile, "service-account JWT"), "auth/" + mount);
    return new VaultToken(
        response.getAuthClientToken(),
        Duration.ofSeconds(response.getAuthLeaseDuration()),
        response.isAuthRenewable());
  }

  @Override
  public String describe() {
    return "Kubernetes auth at auth/" + mount + " as role " + role;
  }

  @Override
  public String loginPath() {
    return "auth/" + mount + "/login";
  }
}

package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.cipherd.server.api.StatusMapper;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyVersionInfo;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keystore.vault.auth.AppRoleAuth;
import io.cipherd.server.keystore.vault.auth.KubernetesAuth;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonArray;
import io.github.jopenlibs.vault.json.JsonObject;
import io.grpc.Status;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Logging in (AppRole, Kubernetes, token), keeping short-lived tokens alive, and the shipped Vault
 * policies.
 */
@Tag("vault")
@Timeout(120)
class VaultAuthTest {
  private static final String PREFIX = "cipherd/keys"; // what deploy/vault/*.hcl grant
  private static final String SA_NAMESPACE = "payments";
  private static final String SA_NAME = "cipherd";
  private static VaultDevServer vault;

  @BeforeAll
  static void startVault() throws Exception {
    vault = VaultDevServer.startDev();
    vault.api("PUT", "sys/policies/acl/cipherd", policyBody("cipherd-policy.hcl"));
    vault.api(
        "PUT", "sys/policies/acl/cipherd-readonly", policyBody("cipherd-readonly-policy.hcl"));
    vault.api("POST", "sys/auth/approle", "{\"type\":\"approle\"}");
    vault.api("POST", "sys/auth/kubernetes", "{\"type\":\"kubernetes\"}");
    vault.api(
        "POST",
        "auth/kubernetes/role/cipherd",
        Json.object()
            .add("bound_service_account_names", new JsonArray().add(SA_NAME))
            .add("bound_service_account_namespaces", new JsonArray().add(SA_NAMESPACE))
            .add("token_policies", new JsonArray().add("cipherd"))
            .toString());
  }

  @AfterAll
  static void stopVault() throws Exception {
    if (vault != null) {
      vault.close();
    }
  }

  @Test
  void appRole_shortTtlToken_isRenewedAtTwoThirdsOfItsTtl_thenReplacedByANewLoginAtItsMaxTtl(
      @TempDir Path dir) throws Exception {
    vault.api(
        "POST",
        "auth/approle/role/cipherd",
        "{\"token_policies\":[\"cipherd\"],\"token_ttl\":\"3s\",\"token_max_ttl\":\"7s\"}");
    Path roleId = dir.resolve("role-id");
    Path secretId = dir.resolve("secret-id");
    Files.writeString(
        roleId,
        data(vault.api("GET", "auth/approle/role/cipherd/role-id", null)).getString("role_id"));
    Files.writeString(
        secretId,
        data(vault.api("POST", "auth/approle/role/cipherd/secret-id", "{}"))
            .getString("secret_id"));

    try (VaultKeyStore store =
        VaultKeyStore.open(vault.config(PREFIX, new AppRoleAuth("approle", roleId, secretId)))) {
      store.createKey("approle-key", version(1), KeyPolicy.DEFAULT);
      long deadline = System.nanoTime() + 20_000_000_000L;
      while ((store.session().renewer().renewals() < 1 || store.session().renewer().relogins() < 1)
          && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }

      assertThat(store.session().renewer().renewals())
          .as("renewed before expiry")
          .isGreaterThanOrEqualTo(1);
      assertThat(store.session().renewer().relogins())
          .as("logged in again at max TTL")
          .isGreaterThanOrEqualTo(1);
      Thread.sleep(1000);
      // The first token has expired by now (max TTL 7s); this only works with the renewed login.
      assertThat(store.readKey("approle-key")).isPresent();
      store.addVersion(
          "approle-key",
          1,
          new NewKeyVersion(
              KeyVersionInfo.generated(2, CipherMode.GCM, 256, Instant.now()), new byte[32]));
    }
  }

  @Test
  void appRole_wrongSecretId_isPermissionDenied_andTheLogNamesTheLoginPath(@TempDir Path dir)
      throws Exception {
    vault.api("POST", "auth/approle/role/other", "{\"token_policies\":[\"cipherd\"]}");
    Path roleId = dir.resolve("role-id");
    Path secretId = dir.resolve("secret-id");
    Files.writeString(
        roleId,
        data(vault.api("GET", "auth/approle/role/other/role-id", null)).getString("role_id"));
    Files.writeString(secretId, "00000000-0000-0000-0000-000000000000");

    try (VaultErrorLog log = new VaultErrorLog()) {
      assertThatThrownBy(
              () ->
                  VaultKeyStore.open(
                      vault.config(PREFIX, new AppRoleAuth("approle", roleId, secretId))))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageContaining("check its credentials")
          .hasMessageNotContaining("auth/approle/login")
          .hasMessageNotContaining("http")
          .hasMessageNotContaining("00000000");
      assertThat(String.join("\n", log.warnings()))
          .contains("auth/approle/login", "check the credentials")
          .doesNotContain("00000000");
    }
  }

  @Test
  void kubernetes_serviceAccountJwt_isReviewedByTheKubernetesApi_andItsTokenCreatesAndRotatesAKey(
      @TempDir Path dir) throws Exception {
    String uid = UUID.randomUUID().toString();
    String jwt = serviceAccountJwt(uid);
    Path jwtFile = dir.resolve("token");
    Files.writeString(jwtFile, jwt + "\n");
    try (TokenReviewStandIn kubernetes = TokenReviewStandIn.vouchingFor(jwt, uid)) {
      configureKubernetesAuth(kubernetes);

      try (VaultKeyStore store =
          VaultKeyStore.open(
              vault.config(PREFIX, new KubernetesAuth("kubernetes", "cipherd", jwtFile)))) {
        store.createKey("k8s-key", version(1), KeyPolicy.DEFAULT);
        store.addVersion("k8s-key", 1, version(2));

        assertThat(store.readKey("k8s-key").orElseThrow().currentVersion()).isEqualTo(2);
      }
      assertThat(kubernetes.accepted())
          .as("Vault asked the Kubernetes API to review the JWT")
          .isEqualTo(1);
      assertThat(kubernetes.rejected()).isZero();
    }
  }

  @Test
  void kubernetes_jwtTheKubernetesApiRejects_isPermissionDenied_andTheLogNamesTheLoginPath(
      @TempDir Path dir) throws Exception {
    String uid = UUID.randomUUID().toString();
    String revoked =
        serviceAccountJwt(
            uid); // the role's service account, but the API no longer knows this token
    Path jwtFile = dir.resolve("token");
    Files.writeString(jwtFile, revoked);
    try (TokenReviewStandIn kubernetes =
            TokenReviewStandIn.vouchingFor(serviceAccountJwt(uid), uid);
        VaultErrorLog log = new VaultErrorLog()) {
      configureKubernetesAuth(kubernetes);

      assertThatThrownBy(
              () ->
                  VaultKeyStore.open(
                      vault.config(PREFIX, new KubernetesAuth("kubernetes", "cipherd", jwtFile))))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageNotContaining("auth/kubernetes/login")
          .hasMessageNotContaining(revoked)
          .satisfies(
              e ->
                  assertThat(StatusMapper.toStatus(e).getCode())
                      .isEqualTo(Status.Code.PERMISSION_DENIED));
      assertThat(String.join("\n", log.warnings()))
          .contains("auth/kubernetes/login")
          .doesNotContain(revoked);
      assertThat(kubernetes.rejected())
          .as("denied by the token review, not by the claims")
          .isGreaterThanOrEqualTo(1);
      assertThat(kubernetes.accepted()).isZero();
    }
  }

  @Test
  void shippedPolicy_allowsEverythingCipherdDoes() throws Exception {
    try (VaultKeyStore store =
        VaultKeyStore.open(vault.config(PREFIX, TokenAuth.of(tokenWithPolicy("cipherd"))))) {
      store.createKey("full", version(1), KeyPolicy.DEFAULT);
      store.addVersion("full", 1, version(2));
      store.updatePolicy("full", new KeyPolicy(1, 2, false));

      assertThat(store.listKeyNames()).contains("full");
      assertThat(store.readKey("full").orElseThrow().currentVersion()).isEqualTo(2);
      assertThat(store.readKey("full").orElseThrow().policy())
          .isEqualTo(new KeyPolicy(1, 2, false));
      assertThat(
              store
                  .readMaterial("full", store.readKey("full").orElseThrow().version(2))
                  .getEncoded())
          .hasSize(32);
      KeyMetadata before = store.readKey("full").orElseThrow();
      KeyMetadata scheduled =
          store.updateLifecycle(
              before,
              LifecycleRules.scheduleDestruction(
                  before, List.of(1), LifecycleRules.MIN_WINDOW, Instant.now()));
      KeyMetadata destroyed =
          store.updateLifecycle(
              scheduled,
              LifecycleRules.due(scheduled, Instant.now().plus(Duration.ofDays(2))).key());
      assertThat(store.readKey("full")).contains(destroyed);
      assertThat(
              Json.parse(vault.api("GET", "secret/metadata/" + PREFIX + "/full", null))
                  .asObject()
                  .get("data")
                  .asObject()
                  .get("versions")
                  .asObject()
                  .get("1")
                  .asObject()
                  .get("destroyed")
                  .asBoolean())
          .as("destroyed through secret/destroy/, which the policy grants")
          .isTrue();
    }
  }

  @Test
  void readOnlyPolicy_readsWork_writesArePermissionDenied_andTheLogNamesTheRefusedPath()
      throws Exception {
    try (VaultKeyStore root = VaultKeyStore.open(vault.config(PREFIX));
        VaultKeyStore readOnly =
            VaultKeyStore.open(
                vault.config(PREFIX, TokenAuth.of(tokenWithPolicy("cipherd-readonly"))));
        VaultErrorLog log = new VaultErrorLog()) {
      root.createKey("existing", version(1), KeyPolicy.DEFAULT);

      assertThat(readOnly.readKey("existing")).isPresent();
      assertThat(
              readOnly.readMaterial(
                  "existing", readOnly.readKey("existing").orElseThrow().version(1)))
          .isNotNull();
      assertThatThrownBy(() -> readOnly.createKey("new-key", version(1), KeyPolicy.DEFAULT))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageNotContaining("secret/")
          .satisfies(
              e ->
                  assertThat(StatusMapper.toStatus(e).getCode())
                      .isEqualTo(Status.Code.PERMISSION_DENIED));
      assertThat(String.join("\n", log.warnings())).contains("secret/data/" + PREFIX + "/new-key");
      assertThatThrownBy(() -> readOnly.addVersion("existing", 1, version(2)))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageNotContaining("secret/");
      assertThatThrownBy(() -> readOnly.updatePolicy("existing", new KeyPolicy(1, 1, false)))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageNotContaining("secret/");
      assertThat(String.join("\n", log.warnings()))
          .as("another kind of refusal (metadata) is logged")
          .contains("secret/metadata/" + PREFIX + "/existing");
      assertThat(root.readKey("existing").orElseThrow().currentVersion()).isEqualTo(1);
    }
  }

  @Test
  void tokenFile_isReadAtLogin_andAnInvalidTokenIsPermissionDenied_andTheLogNamesTheLookupPath(
      @TempDir Path dir) throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, tokenWithPolicy("cipherd") + "\n");
    try (VaultKeyStore store =
        VaultKeyStore.open(vault.config(PREFIX, TokenAuth.fromFile(tokenFile)))) {
      store.createKey("from-token-file", version(1), KeyPolicy.DEFAULT);
      assertThat(store.readKey("from-token-file")).isPresent();
    }

    Files.writeString(tokenFile, "hvs.not-a-token");
    try (VaultErrorLog log = new VaultErrorLog()) {
      assertThatThrownBy(
              () -> VaultKeyStore.open(vault.config(PREFIX, TokenAuth.fromFile(tokenFile))))
          .isInstanceOf(KeyStoreAccessDeniedException.class)
          .hasMessageContaining("check its credentials")
          .hasMessageNotContaining("auth/token/lookup-self")
          .hasMessageNotContaining("hvs.not-a-token");
      assertThat(String.join("\n", log.warnings()))
          .contains("auth/token/lookup-self")
          .doesNotContain("hvs.not-a-token");
    }
  }

  private static NewKeyVersion version(int number) {
    return new NewKeyVersion(
        KeyVersionInfo.generated(number, CipherMode.GCM, 256, Instant.now()), new byte[32]);
  }

  private static String tokenWithPolicy(String policy) throws Exception {
    JsonObject created =
        Json.parse(
                vault.api(
                    "POST",
                    "auth/token/create",
                    "{\"policies\":[\"" + policy + "\"],\"no_default_policy\":false}"))
            .asObject();
    return created.get("auth").asObject().getString("client_token");
  }

  private static JsonObject data(String body) {
    return Json.parse(body).asObject().get("data").asObject();
  }

  private static void configureKubernetesAuth(TokenReviewStandIn kubernetes) throws Exception {
    vault.api(
        "POST",
        "auth/kubernetes/config",
        Json.object()
            .add("kubernetes_host", kubernetes.address())
            .add("disable_local_ca_jwt", true)
            .toString());
  }

  /**
   * A service-account JWT as Kubernetes issues it. Without {@code pem_keys} Vault checks only that
   * the algorithm is one Kubernetes signs with and leaves the signature to the TokenReview, so
   * random bytes do.
   */
  private static String serviceAccountJwt(String uid) {
    Base64.Encoder base64 = Base64.getUrlEncoder().withoutPadding();
    String header = Json.object().add("alg", "RS256").add("typ", "JWT").toString();
    String claims =
        Json.object()
            .add("iss", "kubernetes/serviceaccount")
            .add("sub", "system:serviceaccount:" + SA_NAMESPACE + ":" + SA_NAME)
            .add("kubernetes.io/serviceaccount/namespace", SA_NAMESPACE)
            .add("kubernetes.io/serviceaccount/service-account.name", SA_NAME)
            .add("kubernetes.io/serviceaccount/service-account.uid", uid)
            .toString();
    byte[] signature = new byte[256];
    new SecureRandom().nextBytes(signature);
    return base64.encodeToString(header.getBytes(StandardCharsets.UTF_8))
        + "."
        + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8))
        + "."
        + base64.encodeToString(signature);
  }

  /** The Kubernetes API's TokenReview endpoint, authenticating exactly one service-account JWT. */
  private static final class TokenReviewStandIn implements AutoCloseable {
    private final HttpServer server;
    private final String validJwt;
    private final String validUid;
    private final AtomicInteger accepted = new AtomicInteger();
    private final AtomicInteger rejected = new AtomicInteger();

    private TokenReviewStandIn(String validJwt, String validUid) throws IOException {
      this.validJwt = validJwt;
      this.validUid = validUid;
      this.server =
          HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext("/apis/authentication.k8s.io/v1/tokenreviews", this::review);
      server.start();
    }

    /**
     * Authenticates {@code jwt} as the service account with {@code uid}; any other token is not
     * authenticated.
     */
    static TokenReviewStandIn vouchingFor(String jwt, String uid) throws IOException {
      return new TokenReviewStandIn(jwt, uid);
    }

    String address() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int accepted() {
      return accepted.get();
    }

    int rejected() {
      return rejected.get();
    }

    private void review(HttpExchange exchange) throws IOException {
      try (exchange) {
        if (!"POST".equals(exchange.getRequestMethod())) {
          exchange.sendResponseHeaders(405, -1);
          return;
        }
        String token =
            Json.parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8))
                .asObject()
                .get("spec")
                .asObject()
                .getString("token", "");
        JsonObject status = Json.object().add("authenticated", token.equals(validJwt));
        if (token.equals(validJwt)) {
          accepted.incrementAndGet();
          status.add(
              "user",
              Json.object()
                  .add("username", "system:serviceaccount:" + SA_NAMESPACE + ":" + SA_NAME)
                  .add("uid", validUid)
                  .add("groups", new JsonArray().add("system:serviceaccounts")));
        } else {
          rejected.incrementAndGet();
        }
        byte[] body =
            Json.object()
                .add("apiVersion", "authentication.k8s.io/v1")
                .add("kind", "TokenReview")
                .add("status", status)
                .toString()
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(201, body.length);
        exchange.getResponseBody().write(body);
      }
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  private static String policyBody(String file) throws Exception {
    String hcl = Files.readString(VaultDevServer.repoRoot().resolve("deploy/vault").resolve(file));
    return Json.object().add("policy", hcl).toString();
  }
}

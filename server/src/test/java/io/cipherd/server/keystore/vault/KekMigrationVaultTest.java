package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMaterialUnusableException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyStoreAccessDeniedException;
import io.cipherd.server.keys.KeyTemplate;
import io.cipherd.server.keys.LifecycleChange;
import io.cipherd.server.keys.LifecycleRules;
import io.cipherd.server.keys.SettableClock;
import io.cipherd.server.keys.VersionLifecycle;
import io.cipherd.server.keystore.kek.KekConfig;
import io.cipherd.server.keystore.kek.KekUnwrapException;
import io.cipherd.server.keystore.kek.Pkcs11KekFactory;
import io.cipherd.server.keystore.kek.SoftHsmToken;
import io.cipherd.server.keystore.vault.auth.TokenAuth;
import io.cipherd.server.maintenance.DueDestructions;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import io.github.jopenlibs.vault.json.JsonValue;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Transit KEK on a real Vault: keys made with their material raw in KV, encrypted under, then
 * {@code cipherd kek migrate}d in place while a KEK server keeps decrypting; afterwards every KV
 * secret under the prefix, read through Vault's API and through {@code vault kv get}, holds only
 * Transit-wrapped bytes, the old ciphertexts decrypt on a server that refuses raw material, a new
 * rotation is stored wrapped, a second run wraps nothing, a server without the KEK reads nothing,
 * and a wrapped blob copied to another version's place does not unwrap.
 */
@Tag("vault")
@Timeout(120)
class KekMigrationVaultTest {
  private static final String PREFIX = "cipherd/keys";
  private static final KekConfig TRANSIT = KekConfig.transit("transit", "cipherd-kek", false);
  private static final KekConfig TRANSIT_ONLY_WRAPPED =
      KekConfig.transit("transit", "cipherd-kek", true);

  private VaultDevServer vault;
  private final List<Replica> replicas = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    vault = VaultDevServer.startDev();
    vault.callAsRoot("POST", "sys/mounts/transit", "{\"type\":\"transit\"}");
    vault.callAsRoot("POST", "transit/keys/cipherd-kek", "{\"type\":\"aes256-gcm96\"}");
  }

  @AfterEach
  void stop() throws Exception {
    replicas.forEach(Replica::close);
    vault.close();
  }

  @Test
  void rawStore_migratedInPlace_keepsOnlyWrappedBytesAndDecryptsItsOldData() throws Exception {
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    Map<ByteString, String> ciphertexts = new LinkedHashMap<>();
    for (int version = 1; version <= 3; version++) {
      if (version > 1) {
        raw.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
      }
      ciphertexts.put(raw.encrypt("payments", "card " + version), "card " + version);
    }
    raw.keyRing.create("notes", KeyTemplate.of(CipherMode.CHACHA));
    ciphertexts.put(raw.encrypt("notes", "a note"), "a note");
    byte[] auditKey = raw.vault.auditKeyMaterial();
    assertThat(materialFields()).as("before: raw material in KV").contains("material");

    assertThatThrownBy(
            () -> replica(TRANSIT_ONLY_WRAPPED).decrypt(ciphertexts.keySet().iterator().next()))
        .hasStackTraceContaining("stored unwrapped");
    Replica during = replica(TRANSIT);
    assertThat(during.decrypt(ciphertexts.keySet().iterator().next())).isEqualTo("card 1");

    String first = migrate();
    System.out.println(first);
    assertThat(first)
        .contains("key 'notes': 1 wrapped now, 0 already wrapped")
        .contains("key 'payments': 3 wrapped now, 0 already wrapped")
        .contains("audit key: wrapped now")
        .contains("2 keys: 4 versions wrapped now, 0 already wrapped, 0 destroyed");

    // Every KV secret under the prefix, every version still readable: wrapped bytes only.
    assertThat(materialFields()).doesNotContain("material").contains("material_wrapped");
    String kvGet = vaultKvGet(PREFIX + "/_kek/payments/2");
    assertThat(kvGet).contains("\"material_wrapped\": \"vault:v1:").doesNotContain("\"material\"");
    System.out.println(
        "vault kv get -format=json secret/"
            + PREFIX
            + "/_kek/payments/2 (blob cut short):\n"
            + kvGet.replaceAll("(vault:v1:.{12})[^\"]*", "$1..."));
    assertThat(vaultKvGet(PREFIX + "/payments"))
        .as("the raw KV data is destroyed")
        .contains("\"destroyed\": true")
        .doesNotContain("\"material");

    Replica after = replica(TRANSIT_ONLY_WRAPPED);
    for (Map.Entry<ByteString, String> ciphertext : ciphertexts.entrySet()) {
      assertThat(after.decrypt(ciphertext.getKey())).isEqualTo(ciphertext.getValue());
      assertThat(during.decrypt(ciphertext.getKey())).isEqualTo(ciphertext.getValue());
    }
    assertThat(after.vault.auditKeyMaterial()).isEqualTo(auditKey);

    after.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString fourth = after.encrypt("payments", "card 4");
    assertThat(after.versionOf(fourth)).isEqualTo(4);
    JsonObject v4 = kvData(PREFIX + "/payments?version=4");
    assertThat(v4.names()).contains("material_wrapped", "kek").doesNotContain("material");
    assertThat(v4.get("kek").asString()).isEqualTo("transit:transit/cipherd-kek");
    assertThat(replica(TRANSIT_ONLY_WRAPPED).decrypt(fourth)).isEqualTo("card 4");

    String second = migrate();
    assertThat(second)
        .contains("key 'payments': 0 wrapped now, 4 already wrapped")
        .contains("audit key: wrapped\n")
        .contains("2 keys: 0 versions wrapped now, 5 already wrapped");
    assertThat(materialFields()).doesNotContain("material");

    assertThatThrownBy(() -> replica(KekConfig.OFF).decrypt(fourth))
        .hasStackTraceContaining("this server has none (--kek)");
  }

  /**
   * The same migration with the KEK on a SoftHSM2 token through SunPKCS11 ({@code --kek=pkcs11}).
   */
  @Test
  void rawStore_migratedToAPkcs11Kek_keepsOnlyTokenWrappedBytes() throws Exception {
    KekConfig pkcs11 =
        new KekConfig(Pkcs11KekFactory.NAME, null, null, SoftHsmToken.get().options(), false);
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString first = raw.encrypt("payments", "card 1");
    raw.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    ByteString second = raw.encrypt("payments", "card 2");
    raw.vault.auditKeyMaterial();

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), pkcs11)) {
      store.kekMigration().run(new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("1 keys: 2 versions wrapped now, 0 already wrapped, 0 destroyed; with pkcs11:")
        .contains("audit key: wrapped now");
    assertThat(materialFields("pkcs11:v1:"))
        .doesNotContain("material")
        .contains("material_wrapped");

    Replica after =
        replica(
            new KekConfig(Pkcs11KekFactory.NAME, null, null, SoftHsmToken.get().options(), true));
    assertThat(after.decrypt(first)).isEqualTo("card 1");
    assertThat(after.decrypt(second)).isEqualTo("card 2");
    after.keyRing.rotate("payments", KeyTemplate.of(CipherMode.GCM));
    assertThat(kvData(PREFIX + "/payments?version=3").get("material_wrapped").asString())
        .startsWith("pkcs11:v1:");
    assertThatThrownBy(() -> replica(TRANSIT).decrypt(second))
        .hasStackTraceContaining("not by this server's transit:transit/cipherd-kek");
  }

  @Test
  void wrappedBlob_copiedToAnotherVersionsPlace_doesNotUnwrap() throws Exception {
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    raw.keyRing.rotate("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString second = raw.encrypt("orders", "order 2");
    migrate();
    JsonObject one = kvData(PREFIX + "/_kek/orders/1");
    vault.api("DELETE", "secret/metadata/" + PREFIX + "/_kek/orders/2", null);
    vault.api(
        "POST",
        "secret/data/" + PREFIX + "/_kek/orders/2",
        new JsonObject().add("data", one).toString());
    Replica moved = replica(TRANSIT);
    assertThatThrownBy(
            () ->
                moved.vault.readMaterial(
                    "orders", moved.vault.readKey("orders").orElseThrow().version(2)))
        .isInstanceOf(KeyMaterialUnusableException.class)
        .hasMessage(
            "key 'orders' version 2: its stored key material could not be unwrapped; an operator"
                + " must see the server log")
        .cause()
        .isInstanceOf(KekUnwrapException.class)
        .hasMessageContaining("key 'orders' version 2 in Vault did not unwrap")
        .hasMessageNotContaining(one.get("material_wrapped").asString());
    assertThatThrownBy(() -> moved.decrypt(second))
        .isInstanceOf(KeyMaterialUnusableException.class);
  }

  @Test
  void migratedVersion_destroyedByItsLifecycle_losesItsWrappedCopyToo() throws Exception {
    SettableClock clock = new SettableClock(Instant.parse("2026-01-01T00:00:00Z"));
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    raw.keyRing.rotate("orders", KeyTemplate.of(CipherMode.GCM));
    migrate();
    assertThat(vault.exists("secret/data/" + PREFIX + "/_kek/orders/1")).isTrue();
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), TRANSIT)) {
      KeyMetadata key = store.readKey("orders").orElseThrow();
      store.updateLifecycle(
          key,
          LifecycleRules.scheduleDestruction(
              key, List.of(1), LifecycleRules.MIN_WINDOW, clock.instant()));
      clock.advance(Duration.ofDays(2));
      assertThat(new DueDestructions(store, clock, name -> {}, new SimpleMeterRegistry()).sweep())
          .isEqualTo(1);
    }
    assertThat(vault.exists("secret/data/" + PREFIX + "/_kek/orders/1"))
        .as("the wrapped copy of a destroyed version is destroyed too")
        .isFalse();
    assertThat(
            data(vault.api("GET", "secret/metadata/" + PREFIX + "/_kek/orders/1", null))
                .get("versions")
                .asObject()
                .get("1")
                .asObject()
                .get("destroyed")
                .asBoolean())
        .isTrue();
    assertThat(migrate()).contains("key 'orders': 0 wrapped now, 1 already wrapped, 1 destroyed");
  }

  /**
   * A destruction interrupted between its lifecycle write and the end: Vault refuses the destroy of
   * the wrapped copies to the replica destroying versions 1 and 2 (its token's policy is the
   * shipped one with destroy denied under {@code _kek/}), so they are destroyed on paper while
   * their copies (migrated, then rewrapped after a Transit rotation: two KV versions each) still
   * hold wrapped material, as before the fix for good. The next read of the key by a replica with
   * the shipped grants destroys every version of both copies, as Vault's own metadata shows.
   */
  @Test
  void migratedVersions_destructionInterruptedAtTheirCopies_isFinishedByTheNextReplicasRead()
      throws Exception {
    Replica raw = replica(KekConfig.OFF);
    raw.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    raw.keyRing.rotate("orders", KeyTemplate.of(CipherMode.GCM));
    raw.keyRing.rotate("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString third = raw.encrypt("orders", "order 3");
    migrate();
    vault.callAsRoot("POST", "transit/keys/cipherd-kek/rotate", null);
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), TRANSIT)) {
      store
          .kekRewrap()
          .run(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }
    assertThat(copyVersionsDestroyed(1)).containsExactly(true, false);
    assertThat(copyVersionsDestroyed(2)).containsExactly(true, false);

    String policy =
        Files.readString(VaultDevServer.repoRoot().resolve("deploy/vault/cipherd-policy.hcl"))
            + "\npath \"secret/destroy/cipherd/keys/_kek/*\" {\n  capabilities = [\"deny\"]\n}\n";
    vault.api(
        "PUT",
        "sys/policies/acl/cipherd-no-copy-destroy",
        new JsonObject().add("policy", policy).toString());
    String token =
        Json.parse(
                vault.api(
                    "POST", "auth/token/create", "{\"policies\":[\"cipherd-no-copy-destroy\"]}"))
            .asObject()
            .get("auth")
            .asObject()
            .getString("client_token", "");
    try (VaultKeyStore interrupted =
        VaultKeyStore.open(vault.config(PREFIX, TokenAuth.of(token)), TRANSIT)) {
      KeyMetadata key = interrupted.readKey("orders").orElseThrow();
      KeyMetadata destroyed =
          key.withVersionsReplaced(
              List.of(
                  key.version(1).withLifecycle(VersionLifecycle.destroyed(Instant.now())),
                  key.version(2).withLifecycle(VersionLifecycle.destroyed(Instant.now()))));
      assertThatThrownBy(() -> interrupted.updateLifecycle(key, destroyed))
          .isInstanceOf(KeyStoreAccessDeniedException.class);
      assertThat(interrupted.readKey("orders").orElseThrow().versions())
          .extracting(LifecycleChange::isDestroyed)
          .containsExactly(true, true, false);
    }
    assertThat(copyVersionsDestroyed(1))
        .as("the newest copy still holds the wrapped material")
        .containsExactly(true, false);
    assertThat(kvData(PREFIX + "/_lifecycle/orders").get("destroying").toString())
        .isEqualTo("[1,2]");

    Replica next = replica(TRANSIT);
    assertThat(next.decrypt(third)).isEqualTo("order 3");

    assertThat(copyVersionsDestroyed(1)).containsExactly(true, true);
    assertThat(copyVersionsDestroyed(2)).containsExactly(true, true);
    assertThat(vault.exists("secret/data/" + PREFIX + "/_kek/orders/1")).isFalse();
    assertThat(vault.exists("secret/data/" + PREFIX + "/_kek/orders/2")).isFalse();
    assertThat(kvData(PREFIX + "/_lifecycle/orders").get("destroying")).isNull();
    assertThat(next.vault.readKey("orders").orElseThrow().versions())
        .extracting(LifecycleChange::isDestroyed)
        .containsExactly(true, true, false);
    assertThat(migrate()).contains("key 'orders': 0 wrapped now, 1 already wrapped, 2 destroyed");
  }

  /**
   * Whether each KV version of key orders' version {@code version}'s copy is destroyed, in order.
   */
  private List<Boolean> copyVersionsDestroyed(int version) throws Exception {
    JsonObject versions =
        data(vault.api("GET", "secret/metadata/" + PREFIX + "/_kek/orders/" + version, null))
            .get("versions")
            .asObject();
    List<Boolean> destroyed = new ArrayList<>();
    for (int v = 1; versions.get(Integer.toString(v)) != null; v++) {
      destroyed.add(versions.get(Integer.toString(v)).asObject().get("destroyed").asBoolean());
    }
    return destroyed;
  }

  /**
   * With the grants docs/security.md gives (update on encrypt and decrypt, no create), a Transit
   * key that does not exist is not made by Transit's encrypt: the store does not open.
   */
  @Test
  void startWithATransitKeyThatIsMissing_fails() throws Exception {
    vault.api(
        "PUT",
        "sys/policies/acl/kek-only",
        new JsonObject()
            .add(
                "policy",
                "path \"transit/encrypt/*\" { capabilities = [\"update\"] }\n"
                    + "path \"transit/decrypt/*\" { capabilities = [\"update\"] }\n")
            .toString());
    String token =
        Json.parse(vault.api("POST", "auth/token/create", "{\"policies\":[\"kek-only\"]}"))
            .asObject()
            .get("auth")
            .asObject()
            .getString("client_token", "");
    VaultConfig config = vault.config(PREFIX, TokenAuth.of(token));
    VaultKeyStore.open(config, TRANSIT).close();
    assertThatThrownBy(
            () -> VaultKeyStore.open(config, KekConfig.transit("transit", "no-such-key", false)))
        .isInstanceOf(KeyStoreAccessDeniedException.class);
    assertThat(vault.exists("transit/keys/no-such-key")).isFalse();
  }

  private Replica replica(KekConfig kek) {
    Replica replica = new Replica(vault.config(PREFIX), kek);
    replicas.add(replica);
    return replica;
  }

  /** Runs the migration as {@code cipherd kek migrate} does, returning what it printed. */
  private String migrate() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (VaultKeyStore store = VaultKeyStore.open(vault.config(PREFIX), TRANSIT)) {
      store.kekMigration().run(new PrintStream(printed, true, StandardCharsets.UTF_8));
    }
    return printed.toString(StandardCharsets.UTF_8);
  }

  /** The field names of every readable version of every KV secret under the prefix. */
  private List<String> materialFields() throws Exception {
    return materialFields("vault:v1:");
  }

  private List<String> materialFields(String blobPrefix) throws Exception {
    List<String> fields = new ArrayList<>();
    for (String secret : secrets(PREFIX)) {
      JsonObject versions =
          data(vault.api("GET", "secret/metadata/" + secret, null)).get("versions").asObject();
      for (JsonObject.Member version : versions) {
        JsonObject state = version.getValue().asObject();
        boolean gone =
            state.get("destroyed").asBoolean() || !state.get("deletion_time").asString().isEmpty();
        if (!gone) {
          JsonObject data = kvData(secret + "?version=" + version.getName());
          for (String name : data.names()) {
            if (name.startsWith("material")) {
              fields.add(name);
              if (name.equals("material_wrapped")) {
                assertThat(data.get(name).asString()).startsWith(blobPrefix);
              }
            }
          }
        }
      }
    }
    return fields;
  }

  /** Every KV secret under {@code folder}, walking sub-folders. */
  private List<String> secrets(String folder) throws Exception {
    List<String> found = new ArrayList<>();
    JsonValue keys =
        data(vault.api("GET", "secret/metadata/" + folder + "?list=true", null)).get("keys");
    for (JsonValue key : keys.asArray()) {
      String name = key.asString();
      if (name.endsWith("/")) {
        found.addAll(secrets(folder + "/" + name.substring(0, name.length() - 1)));
      } else {
        found.add(folder + "/" + name);
      }
    }
    return found;
  }

  private JsonObject kvData(String secretAndQuery) throws Exception {
    return data(vault.api("GET", "secret/data/" + secretAndQuery, null)).get("data").asObject();
  }

  private static JsonObject data(String body) {
    return Json.parse(body).asObject().get("data").asObject();
  }

  /** {@code vault kv get -format=json secret/<path>} with the Vault binary the test runs. */
  private String vaultKvGet(String path) throws Exception {
    Process process = vaultCli("kv", "get", "-format=json", "secret/" + path);
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out;
  }

  private Process vaultCli(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(VaultDevServer.binary().toString());
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("VAULT_ADDR", vault.address());
    builder.environment().put("VAULT_TOKEN", vault.rootToken());
    builder.environment().remove("VAULT_NAMESPACE");
    return builder.start();
  }
}

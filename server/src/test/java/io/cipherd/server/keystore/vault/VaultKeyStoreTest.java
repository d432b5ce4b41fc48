package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreContractTest;
import io.cipherd.server.keys.NewKeyVersion;
import io.cipherd.server.keys.VersionLifecycle;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The key-store contract on a real Vault dev server; each test gets its own empty prefix. */
@Tag("vault")
class VaultKeyStoreTest extends KeyStoreContractTest<VaultKeyStore> {
  private static final AtomicInteger NEXT_PREFIX = new AtomicInteger();
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();
  private String prefix;

  @Override
  protected VaultKeyStore newStore() {
    prefix = "cipherd/contract-" + NEXT_PREFIX.incrementAndGet();
    return VaultKeyStore.open(vault.config(prefix));
  }

  @Override
  protected void reopenStore() {
    store.close();
    store = VaultKeyStore.open(vault.config(prefix));
  }

  @Test
  void layout_isOneSecretPerKeyWithOneKvVersionPerKeyVersion_readableWithPlainKvCalls()
      throws Exception {
    store.createKey("payments", version(1, CipherMode.GCM, 256), new KeyPolicy(1, 2, false));
    store.addVersion("payments", 1, version(2, CipherMode.CBC, 128, true));

    JsonObject v2 =
        Json.parse(vault.api("GET", "secret/data/" + prefix + "/payments?version=2", null))
            .asObject()
            .get("data")
            .asObject()
            .get("data")
            .asObject();
    JsonObject metadata =
        Json.parse(vault.api("GET", "secret/metadata/" + prefix + "/payments", null))
            .asObject()
            .get("data")
            .asObject();

    assertThat(v2.names())
        .containsExactlyInAnyOrder(
            "algorithm", "mode", "key_size_bits", "created", "imported", "material");
    assertThat(v2.get("mode").asString()).isEqualTo("cbc");
    assertThat(v2.get("algorithm").asString()).isEqualTo("AES");
    assertThat(v2.get("key_size_bits").asInt()).isEqualTo(128);
    assertThat(v2.get("imported").asBoolean()).isTrue();
    assertThat(metadata.get("current_version").asInt()).isEqualTo(2);
    assertThat(metadata.get("max_versions").asLong()).isEqualTo(Integer.MAX_VALUE);
    assertThat(metadata.get("cas_required").asBoolean()).isTrue();
    JsonObject custom = metadata.get("custom_metadata").asObject();
    assertThat(
            List.of(
                custom.get("min_decryption_version").asString(),
                custom.get("min_encryption_version").asString(),
                custom.get("allow_ecb_encryption").asString()))
        .containsExactly("1", "2", "false");
  }

  @Test
  void kvWriteWithoutCheckAndSet_isRefusedByVault_soNoWriterCanOverwriteAVersion()
      throws Exception {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);

    Assertions.assertThatThrownBy(
            () ->
                vault.api(
                    "POST",
                    "secret/data/" + prefix + "/payments",
                    "{\"data\":{\"material\":\"AAAA\"}}"))
        .hasMessageContaining("400")
        .hasMessageContaining("check-and-set");
    assertThat(store.readKey("payments").orElseThrow().currentVersion()).isEqualTo(1);
  }

  @Test
  void destroyedVersion_kvDataIsDestroyed_andTheLifecycleSecretKeepsItsFields() throws Exception {
    NewKeyVersion v1 = version(1, CipherMode.CBC, 128, true);
    store.createKey("payments", v1, KeyPolicy.DEFAULT);
    store.addVersion("payments", 1, version(2, CipherMode.GCM, 256));
    schedule("payments", 1);
    destroyDue("payments");

    JsonObject metadata =
        Json.parse(vault.api("GET", "secret/metadata/" + prefix + "/payments", null))
            .asObject()
            .get("data")
            .asObject();
    JsonObject lifecycle =
        Json.parse(vault.api("GET", "secret/data/" + prefix + "/_lifecycle/payments", null))
            .asObject()
            .get("data")
            .asObject()
            .get("data")
            .asObject();

    assertThat(metadata.get("versions").asObject().get("1").asObject().get("destroyed").asBoolean())
        .isTrue();
    assertThat(metadata.get("versions").asObject().get("2").asObject().get("destroyed").asBoolean())
        .isFalse();
    JsonObject version1 = lifecycle.get("versions").asObject().get("1").asObject();
    assertThat(version1.get("state").asString()).isEqualTo("DESTROYED");
    assertThat(version1.get("metadata").asObject().names())
        .containsExactlyInAnyOrder("algorithm", "mode", "key_size_bits", "created", "imported");
    assertThat(lifecycle.get("state").asString()).isEqualTo("ENABLED");
    assertThat(store.listKeyNames()).containsExactly("payments");
  }

  /**
   * The winner of the lifecycle write dies before Vault's destroy: the version is marked destroyed
   * but its KV data is still there. Any later read of the key finishes the destruction.
   */
  @Test
  void destructionLeftUndone_isFinishedByTheNextRead() throws Exception {
    store.createKey("payments", version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
    KeyMetadata rotated = store.addVersion("payments", 1, version(2, CipherMode.GCM, 256));
    KeyMetadata destroyedOnlyOnPaper =
        rotated.withVersionsReplaced(
            List.of(
                rotated.version(1).withLifecycle(VersionLifecycle.destroyed(T0.plusSeconds(9)))));
    vault.api(
        "POST",
        "secret/data/" + prefix + "/_lifecycle/payments",
        Json.object()
            .add("options", Json.object().add("cas", 0))
            .add("data", KvLifecycle.of(destroyedOnlyOnPaper, Set.of()).encode("crashed-writer"))
            .toString());
    assertThat(kvVersionDestroyed("payments", 1)).isFalse();

    reopenStore();
    assertThat(store.readKey("payments")).contains(destroyedOnlyOnPaper);

    assertThat(kvVersionDestroyed("payments", 1)).isTrue();
    assertThat(kvVersionDestroyed("payments", 2)).isFalse();
  }

  private boolean kvVersionDestroyed(String name, int version) throws Exception {
    return Json.parse(vault.api("GET", "secret/metadata/" + prefix + "/" + name, null))
        .asObject()
        .get("data")
        .asObject()
        .get("versions")
        .asObject()
        .get(Integer.toString(version))
        .asObject()
        .get("destroyed")
        .asBoolean();
  }
}

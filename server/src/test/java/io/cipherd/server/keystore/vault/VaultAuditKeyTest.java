package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.KeyPolicy;
import io.cipherd.server.keys.KeyStoreContractTest;
import io.github.jopenlibs.vault.json.Json;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The audit key in a real Vault: replicas starting together agree on one (check-and-set), and it is
 * the KV secret {@code _audit/key}, which no listing shows as a key.
 */
@Tag("vault")
class VaultAuditKeyTest {
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();

  @Test
  void replicasStartingTogether_shareOneAuditKey_keptAsAKvSecretThatIsNoKey() throws Exception {
    String prefix = "cipherd/audit-key";
    List<VaultKeyStore> replicas = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      replicas.add(VaultKeyStore.open(vault.config(prefix)));
    }
    ExecutorService threads = Executors.newFixedThreadPool(replicas.size());
    try {
      List<Future<byte[]>> keys = new ArrayList<>();
      for (VaultKeyStore replica : replicas) {
        keys.add(threads.submit((Callable<byte[]>) replica::auditKeyMaterial));
      }
      byte[] first = keys.get(0).get();
      assertThat(first).hasSize(32);
      for (Future<byte[]> key : keys) {
        assertThat(key.get()).isEqualTo(first);
      }
      replicas
          .get(0)
          .createKey(
              "orders", KeyStoreContractTest.version(1, CipherMode.GCM, 256), KeyPolicy.DEFAULT);
      assertThat(replicas.get(1).listKeyNames()).containsExactly("orders");
      String stored =
          Json.parse(vault.api("GET", "secret/data/" + prefix + "/_audit/key", null))
              .asObject()
              .get("data")
              .asObject()
              .get("data")
              .asObject()
              .get("material")
              .asString();
      assertThat(Base64.getDecoder().decode(stored)).isEqualTo(first);
    } finally {
      threads.shutdownNow();
      replicas.forEach(VaultKeyStore::close);
    }
  }
}

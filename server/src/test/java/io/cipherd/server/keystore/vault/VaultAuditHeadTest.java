package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import io.cipherd.server.keys.AuditHead;
import io.cipherd.server.keys.AuditHeads;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Audit heads in a real Vault's KV v2: one secret per trail under {@code _audit/heads/}, written
 * with check-and-set, so of replicas writing from the same head one wins, and a replica whose
 * remembered KV version is stale is not fooled.
 */
@Tag("vault")
class VaultAuditHeadTest {
  private static final String TRAIL = "pod-0:/var/log/cipherd/audit.log";
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();

  @Test
  void replicasWritingFromTheSameHead_oneWins_andTheHeadIsAKvSecretWithCas() throws Exception {
    String prefix = "cipherd/audit-heads";
    List<VaultKeyStore> replicas = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      replicas.add(VaultKeyStore.open(vault.config(prefix)));
    }
    ExecutorService threads = Executors.newFixedThreadPool(replicas.size());
    try {
      assertThat(replicas.get(0).readAuditHead(TRAIL)).isEmpty();
      AuditHead base = AuditHeads.at(TRAIL, 10);
      assertThat(replicas.get(0).writeAuditHead(null, base)).isTrue();
      assertThat(replicas.get(1).writeAuditHead(null, AuditHeads.at(TRAIL, 11))).isFalse();

      CountDownLatch go = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < replicas.size(); i++) {
        VaultKeyStore replica = replicas.get(i);
        AuditHead next = AuditHeads.at(TRAIL, 20 + i);
        results.add(
            threads.submit(
                (Callable<Boolean>)
                    () -> {
                      go.await();
                      return replica.writeAuditHead(base, next);
                    }));
      }
      go.countDown();
      int winner = -1;
      for (int i = 0; i < results.size(); i++) {
        if (results.get(i).get()) {
          assertThat(winner).as("only one replica wins").isEqualTo(-1);
          winner = i;
        }
      }
      assertThat(winner).isNotEqualTo(-1);
      AuditHead won = AuditHeads.at(TRAIL, 20 + winner);
      for (VaultKeyStore replica : replicas) {
        assertThat(replica.readAuditHead(TRAIL)).contains(won);
      }

      // Replica 0 wrote the head at KV version 1 and remembers it; after others moved it, a write
      // from a stale expectation fails, and one from the stored head succeeds.
      VaultKeyStore first = replicas.get(0);
      VaultKeyStore other = replicas.get((winner + 1) % replicas.size());
      assertThat(first.writeAuditHead(base, AuditHeads.at(TRAIL, 40))).isFalse();
      assertThat(other.writeAuditHead(won, AuditHeads.at(TRAIL, 41))).isTrue();
      assertThat(first.writeAuditHead(won, AuditHeads.at(TRAIL, 42))).isFalse();
      assertThat(first.writeAuditHead(AuditHeads.at(TRAIL, 41), AuditHeads.at(TRAIL, 43))).isTrue();

      JsonObject secret =
          Json.parse(
                  vault.api("GET", "secret/data/" + prefix + "/" + KvAuditHeads.path(TRAIL), null))
              .asObject()
              .get("data")
              .asObject();
      assertThat(secret.get("data").asObject().get("seq").asLong()).isEqualTo(43);
      assertThat(secret.get("metadata").asObject().get("version").asInt()).isEqualTo(4);
      assertThat(first.listKeyNames()).isEmpty();
    } finally {
      threads.shutdownNow();
      replicas.forEach(VaultKeyStore::close);
    }
  }
}

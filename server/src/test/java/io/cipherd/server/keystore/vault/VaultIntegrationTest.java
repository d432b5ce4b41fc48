package io.cipherd.server.keystore.vault;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.cipherd.server.crypto.CipherMode;
import io.cipherd.server.keys.ConcurrentKeyUpdateException;
import io.cipherd.server.keys.KeyMetadata;
import io.cipherd.server.keys.KeyTemplate;
import io.github.jopenlibs.vault.json.Json;
import io.github.jopenlibs.vault.json.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two cipherd replicas sharing keys in one real Vault: rotation, refresh, on-demand versions,
 * races, many versions.
 */
@Tag("vault")
@Timeout(120)
class VaultIntegrationTest {
  private static final AtomicInteger NEXT_PREFIX = new AtomicInteger();
  @RegisterExtension static final VaultDevServer vault = VaultDevServer.perClass();
  private Replica a;
  private Replica b;
  private String prefix;

  @BeforeEach
  void startReplicas() {
    prefix = "cipherd/it-" + NEXT_PREFIX.incrementAndGet();
    a = new Replica(vault.config(prefix));
    b = new Replica(vault.config(prefix));
  }

  @AfterEach
  void stopReplicas() {
    a.close();
    b.close();
  }

  @Test
  void
      rotateOnA_bothReplicasDecryptBothReplicasCiphertexts_andBEncryptsWithTheNewVersionAfterRefresh() {
    a.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    ByteString fromA1 = a.encrypt("orders", "a-v1");
    ByteString fromB1 = b.encrypt("orders", "b-v1");

    a.keyRing.rotate("orders", KeyTemplate.defaults());
    ByteString fromA2 = a.encrypt("orders", "a-v2");
    ByteString fromBBeforeRefresh = b.encrypt("orders", "b-before-refresh");

    assertThat(a.versionOf(fromA2)).isEqualTo(2);
    assertThat(b.versionOf(fromBBeforeRefresh)).as("B has not refreshed yet").isEqualTo(1);
    assertThat(b.keyRing.refreshCached()).isZero();
    ByteString fromB2 = b.encrypt("orders", "b-v2");
    assertThat(b.versionOf(fromB2)).isEqualTo(2);
    for (Replica replica : List.of(a, b)) {
      assertThat(replica.decrypt(fromA1)).isEqualTo("a-v1");
      assertThat(replica.decrypt(fromB1)).isEqualTo("b-v1");
      assertThat(replica.decrypt(fromA2)).isEqualTo("a-v2");
      assertThat(replica.decrypt(fromB2)).isEqualTo("b-v2");
    }
  }

  @Test
  void ciphertextOfAVersionBHasNotSeen_isDecryptedByFetchingThatVersionOnDemand() {
    a.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    b.decrypt(b.encrypt("orders", "warm B's cache with version 1"));
    a.keyRing.rotate("orders", KeyTemplate.defaults());
    ByteString v2 = a.encrypt("orders", "only A knows v2");
    b.store.resetCounts();

    assertThat(b.engine.keys().isCached("orders", 2)).as("must go to the blocking pool").isFalse();
    assertThat(b.decrypt(v2)).isEqualTo("only A knows v2");
    assertThat(b.store.calls("readKey")).isEqualTo(1);
    assertThat(b.store.calls("readMaterial")).isEqualTo(1);
    assertThat(b.engine.keys().isCached("orders", 2)).isTrue();
  }

  @Test
  void twoReplicasRotatingAtOnce_eachRotationAddsExactlyOneVersion_noneLostOrOverwritten()
      throws Exception {
    a.keyRing.create("orders", KeyTemplate.of(CipherMode.GCM));
    int rotationsEach = 10;
    CyclicBarrier start = new CyclicBarrier(2);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    AtomicInteger aborted = new AtomicInteger();
    try {
      List<Future<List<Integer>>> results = new ArrayList<>();
      for (Replica replica : List.of(a, b)) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  List<Integer> added = new ArrayList<>();
                  for (int i = 0; i < rotationsEach; i++) {
                    try {
                      added.add(
                          replica
                              .keyRing
                              .rotate("orders", KeyTemplate.defaults())
                              .currentVersion());
                    } catch (ConcurrentKeyUpdateException lostEveryRetry) {
                      aborted
                          .incrementAndGet(); // ABORTED to the caller, who may retry; nothing was
                      // stored
                    }
                  }
                  return added;
                }));
      }
      List<Integer> versionsAdded = new ArrayList<>();
      for (Future<List<Integer>> result : results) {
        versionsAdded.addAll(result.get(60, TimeUnit.SECONDS));
      }

      KeyMetadata key = a.store.readKey("orders").orElseThrow();
      assertThat(aborted.get()).as("rotations that gave up after retries").isLessThanOrEqualTo(2);
      assertThat(key.currentVersion())
          .as("one version per successful rotation")
          .isEqualTo(1 + versionsAdded.size());
      assertThat(new HashSet<>(versionsAdded))
          .as("each rotation reports its own new version")
          .hasSize(versionsAdded.size());
      Set<String> distinctMaterial = new HashSet<>();
      for (int v = 1; v <= key.currentVersion(); v++) {
        distinctMaterial.add(
            HexFormat.of().formatHex(a.store.readMaterial("orders", key.version(v)).getEncoded()));
      }
      assertThat(distinctMaterial)
          .as("no version overwritten by another")
          .hasSize(key.currentVersion());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void fiftyRotations_keepEveryVersionInVault_andDataFromVersionOneStillDecrypts()
      throws Exception {
    a.keyRing.create("archive", KeyTemplate.of(CipherMode.GCM));
    ByteString fromV1 = a.encrypt("archive", "written under version 1");

    for (int i = 0; i < 50; i++) {
      a.keyRing.rotate("archive", KeyTemplate.defaults());
    }

    JsonObject metadata =
        Json.parse(vault.api("GET", "secret/metadata/" + prefix + "/archive", null))
            .asObject()
            .get("data")
            .asObject();
    assertThat(metadata.get("current_version").asInt()).isEqualTo(51);
    assertThat(metadata.get("oldest_version").asInt()).as("nothing pruned").isZero();
    assertThat(metadata.get("versions").asObject().names()).hasSize(51);
    Replica fresh = new Replica(vault.config(prefix));
    try {
      assertThat(fresh.decrypt(fromV1))
          .as("a replica that never cached v1")
          .isEqualTo("written under version 1");
      assertThat(fresh.versionOf(fresh.encrypt("archive", "new"))).isEqualTo(51);
    } finally {
      fresh.close();
    }
  }

  @Test
  void cachedKey_encryptsAndDecryptsWithZeroVaultCalls() {
    a.keyRing.create("hot", KeyTemplate.of(CipherMode.GCM));
    a.decrypt(a.encrypt("hot", "warm up"));
    a.store.resetCounts();

    for (int i = 0; i < 200; i++) {
      assertThat(a.decrypt(a.encrypt("hot", "m" + i))).isEqualTo("m" + i);
    }

    assertThat(a.store.totalCalls()).isZero();
  }
}
